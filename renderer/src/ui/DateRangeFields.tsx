/** The From and To day fields of a search or a filter, as one piece so every screen reads dates alike. */
export interface DateRange {
  /** yyyy-mm-dd, or empty for no bound. */
  from: string;
  to: string;
}

export function DateRangeFields({
  range,
  onChange,
}: {
  range: DateRange;
  onChange(change: Partial<DateRange>): void;
}) {
  return (
    <>
      <label className="field">
        <span className="field-label">From</span>
        <input
          className="input"
          type="date"
          value={range.from}
          onChange={(event) => onChange({ from: event.target.value })}
        />
      </label>
      <label className="field">
        <span className="field-label">To</span>
        <input
          className="input"
          type="date"
          value={range.to}
          onChange={(event) => onChange({ to: event.target.value })}
        />
      </label>
    </>
  );
}

/** A filter by who made a transaction: the people at this counter are offered, any other name typed. */
import { useTerminal } from '../terminal/terminal-context';
import { useLoad } from '../ui/use-load';

export function CashierFilter({ value, onChange }: { value: string; onChange: (cashier: string) => void }) {
  const { bridge } = useTerminal();
  const staff = useLoad(() => bridge.invoke('staff:list'), [bridge]);
  return (
    <label className="field">
      <span className="field-label">Cashier</span>
      <input
        className="input"
        list="cashier-names"
        maxLength={100}
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      <datalist id="cashier-names">
        {(staff.data?.staff ?? []).map((member) => (
          <option key={member.id} value={member.name} />
        ))}
      </datalist>
    </label>
  );
}

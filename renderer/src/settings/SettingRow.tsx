/** One setting on a form: its name, what it does, and the control that changes it. */
import type { ReactNode } from 'react';

export function SettingRow({
  id,
  label,
  help,
  children,
}: {
  /** The control's id, which the name labels. */
  id: string;
  label: string;
  help?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="setting-row">
      <div>
        <label className="setting-name" htmlFor={id}>
          {label}
        </label>
        {help && <p className="setting-help">{help}</p>}
      </div>
      {children}
    </div>
  );
}

/** A setting typed as a whole number, digits only, with its unit beside it. */
export function WholeNumberRow({
  id,
  label,
  help,
  digits,
  suffix,
  value,
  onChange,
}: {
  id: string;
  label: string;
  help: string;
  digits: number;
  suffix: string;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <SettingRow id={id} label={label} help={help}>
      <span className="input-affix input-affix-wide">
        <input
          id={id}
          className="input"
          inputMode="numeric"
          maxLength={digits}
          value={value}
          onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, digits))}
        />
        <span className="input-suffix" aria-hidden="true">
          {suffix}
        </span>
      </span>
    </SettingRow>
  );
}

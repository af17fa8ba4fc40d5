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

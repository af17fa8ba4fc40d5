/**
 * Settings → Staff: the cashiers and managers, each with a PIN of their own, and when the counter
 * locks itself. A manager allows every change here; retired people stay in history.
 */
import { useState } from 'react';
import type { StaffMemberShown, StaffRoleName } from '../../../shared/ipc/staff-contract';
import { useSettingsChange } from '../settings/settings-change';
import { useTerminal } from '../terminal/terminal-context';
import { BusyButton } from '../ui/BusyButton';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { DigitsInput } from '../ui/DigitsInput';
import { LoadProblem } from '../ui/LoadProblem';
import { ProblemNotice } from '../ui/ProblemNotice';
import { counted } from '../transactions/present';
import { useLoad } from '../ui/use-load';
import { useCounterPerson } from './counter-session';
import { pinProblem } from './pin-rules';
import { NewPinField } from './SignInScreen';

type Editing =
  { kind: 'add' } | { kind: 'pin'; member: StaffMemberShown } | { kind: 'retire'; member: StaffMemberShown };

export function StaffSection() {
  const { bridge } = useTerminal();
  const { session } = useCounterPerson();
  const change = useSettingsChange();
  const [refresh, setRefresh] = useState(0);
  const staff = useLoad(() => bridge.invoke('staff:list'), [bridge, refresh]);
  const [editing, setEditing] = useState<Editing>();
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const [minutes, setMinutes] = useState(String(session.lockAfterMinutes));
  const [retiring, setRetiring] = useState(false);

  const run = async (work: (pin: string | undefined) => Promise<unknown>, said: string) => {
    setProblem(undefined);
    setDone(undefined);
    const result = await change(work);
    if (result.ok) {
      setEditing(undefined);
      setDone(said);
      setRefresh((count) => count + 1);
      return true;
    }
    if (!('cancelled' in result)) setProblem(result.problem);
    return false;
  };

  const people = staff.data?.staff ?? [];
  const live = people.filter((member) => !member.retired);
  const retired = people.filter((member) => member.retired);

  return (
    <section className="panel settings-section" aria-labelledby="staff-title">
      <header className="section-head">
        <h2 id="staff-title">Staff</h2>
        <p>
          Each cashier and manager signs in with a PIN of their own; every transaction records who made it.
          Refunds, voids, closing the batch and settings changes need a manager: one signed in, or a manager's
          PIN for that one action. Tender keeps only a salted hash of each PIN and pauses after five wrong
          tries.
        </p>
      </header>

      <LoadProblem loaded={staff} />
      {staff.data && (
        <table className="table staff-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Server</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {live.map((member) => (
              <tr key={member.id}>
                <td>{member.name}</td>
                <td>{member.role === 'manager' ? 'Manager' : 'Cashier'}</td>
                <td>{member.serverId || '—'}</td>
                <td className="row-actions">
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    onClick={() => setEditing({ kind: 'pin', member })}
                  >
                    New PIN
                  </button>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    onClick={() =>
                      void run(
                        (pin) =>
                          bridge.invoke('staff:change', {
                            id: member.id,
                            role: member.role === 'manager' ? 'cashier' : 'manager',
                            ...(pin && { pin }),
                          }),
                        `${member.name} is now a ${member.role === 'manager' ? 'cashier' : 'manager'}.`,
                      )
                    }
                  >
                    {member.role === 'manager' ? 'Make cashier' : 'Make manager'}
                  </button>
                  <button
                    type="button"
                    className="button button-danger-quiet button-small"
                    onClick={() => setEditing({ kind: 'retire', member })}
                  >
                    Retire
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {retired.length > 0 && (
        <p className="setting-help">
          Retired, kept in history: {retired.map((member) => member.name).join(', ')}.
        </p>
      )}
      <ProblemNotice problem={editing ? undefined : problem} />
      {done && (
        <p className="notice notice-good" role="status">
          {done}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="button button-primary" onClick={() => setEditing({ kind: 'add' })}>
          Add a person
        </button>
      </div>

      <form
        className="settings-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const value = Number(minutes);
          if (!/^\d{1,3}$/.test(minutes) || value > 240)
            return setProblem('Lock after 0 to 240 minutes (0 never locks by itself).');
          void run(
            (pin) => bridge.invoke('staff:set-lock-minutes', { minutes: value, ...(pin && { pin }) }),
            value === 0
              ? 'The counter locks only when someone locks it.'
              : `The counter locks after ${counted(value, 'minute')} untouched.`,
          );
        }}
      >
        <h3>Locking</h3>
        <div className="field-row">
          <label className="field">
            <span className="field-label">Lock after this many minutes untouched (0: never)</span>
            <DigitsInput value={minutes} length={3} onDigits={setMinutes} />
          </label>
        </div>
        <div className="form-actions">
          <BusyButton type="submit" className="button button-secondary" busy={false}>
            Save
          </BusyButton>
        </div>
      </form>

      {editing?.kind === 'add' && (
        <AddPerson
          problem={problem}
          onCancel={() => (setEditing(undefined), setProblem(undefined))}
          onAdd={(person) =>
            run(
              (pin) =>
                bridge.invoke('staff:create', {
                  name: person.name,
                  role: person.role,
                  newPin: person.pin,
                  ...(person.serverId && { serverId: person.serverId }),
                  ...(pin && { pin }),
                }),
              `${person.name} can sign in now.`,
            )
          }
        />
      )}
      {editing?.kind === 'pin' && (
        <NewPin
          member={editing.member}
          problem={problem}
          onCancel={() => (setEditing(undefined), setProblem(undefined))}
          onSave={(newPin) =>
            run(
              (pin) => bridge.invoke('staff:change', { id: editing.member.id, newPin, ...(pin && { pin }) }),
              `${editing.member.name} has a new PIN.`,
            )
          }
        />
      )}
      {editing?.kind === 'retire' && (
        <ConfirmDialog
          title={`Retire ${editing.member.name}?`}
          confirmLabel="Retire"
          busy={retiring}
          // A refusal (the last manager) is said in the dialog, where the manager is looking.
          problem={problem}
          onConfirm={() => {
            setRetiring(true);
            void run(
              (pin) => bridge.invoke('staff:retire', { id: editing.member.id, ...(pin && { pin }) }),
              `${editing.member.name} is retired.`,
            ).finally(() => setRetiring(false));
          }}
          onCancel={() => (setEditing(undefined), setProblem(undefined))}
        >
          <p>They can no longer sign in or approve anything. History keeps their name on what they did.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

interface NewPerson {
  name: string;
  role: StaffRoleName;
  pin: string;
  serverId: string;
}

function AddPerson({
  problem,
  onAdd,
  onCancel,
}: {
  problem: string | undefined;
  onAdd: (person: NewPerson) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [person, setPerson] = useState<NewPerson>({ name: '', role: 'cashier', pin: '', serverId: '' });
  const [repeat, setRepeat] = useState('');
  const [local, setLocal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const edit = (change: Partial<NewPerson>) => (
    setPerson((previous) => ({ ...previous, ...change })),
    setLocal(undefined)
  );

  return (
    <ConfirmDialog
      title="Add a person"
      confirmLabel="Add"
      tone="neutral"
      busy={busy}
      submitOnEnter
      onCancel={onCancel}
      onConfirm={() => {
        const wrong =
          person.name.trim() === ''
            ? 'Type their name, as reports will show it.'
            : (pinProblem(person.pin, repeat) ??
              (person.serverId !== '' && person.serverId.length !== 2
                ? 'A server number has two digits, like 07.'
                : undefined));
        if (wrong) return setLocal(wrong);
        setBusy(true);
        void onAdd({ ...person, name: person.name.trim() }).finally(() => setBusy(false));
      }}
    >
      <div className="staff-form">
        <label className="field">
          <span className="field-label">Name</span>
          <input
            className="input"
            value={person.name}
            maxLength={40}
            onChange={(event) => edit({ name: event.target.value })}
            data-autofocus
          />
        </label>
        <fieldset className="field">
          <legend className="field-label">Role</legend>
          <div className="choice-row">
            {(['cashier', 'manager'] as const).map((role) => (
              <label key={role} className="choice">
                <input
                  type="radio"
                  name="staff-role"
                  checked={person.role === role}
                  onChange={() => edit({ role })}
                />
                {role === 'manager' ? 'Manager' : 'Cashier'}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="field-row">
          <NewPinField label="Their PIN" value={person.pin} onChange={(pin) => edit({ pin })} />
          <NewPinField
            label="The same PIN again"
            value={repeat}
            onChange={(digits) => (setRepeat(digits), setLocal(undefined))}
          />
        </div>
        <label className="field">
          <span className="field-label">Server number (optional; new tabs take it)</span>
          <DigitsInput value={person.serverId} length={2} onDigits={(serverId) => edit({ serverId })} />
        </label>
        <ProblemNotice problem={local ?? problem} />
      </div>
    </ConfirmDialog>
  );
}

function NewPin({
  member,
  problem,
  onSave,
  onCancel,
}: {
  member: StaffMemberShown;
  problem: string | undefined;
  onSave: (pin: string) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [pin, setPin] = useState('');
  const [repeat, setRepeat] = useState('');
  const [local, setLocal] = useState<string>();
  const [busy, setBusy] = useState(false);
  return (
    <ConfirmDialog
      title={`A new PIN for ${member.name}`}
      confirmLabel="Save the PIN"
      tone="neutral"
      busy={busy}
      submitOnEnter
      onCancel={onCancel}
      onConfirm={() => {
        const wrong = pinProblem(pin, repeat);
        if (wrong) return setLocal(wrong);
        setBusy(true);
        void onSave(pin).finally(() => setBusy(false));
      }}
    >
      <div className="staff-form">
        <div className="field-row">
          <NewPinField
            label="New PIN"
            value={pin}
            onChange={(digits) => (setPin(digits), setLocal(undefined))}
          />
          <NewPinField
            label="The same PIN again"
            value={repeat}
            onChange={(digits) => (setRepeat(digits), setLocal(undefined))}
          />
        </div>
        <ProblemNotice problem={local ?? problem} />
      </div>
    </ConfirmDialog>
  );
}

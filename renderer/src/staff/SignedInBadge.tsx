/** Who is signed in, always in view; pressing it locks the counter, which is also how cashiers switch. */
import { useState } from 'react';
import { useCounterPerson } from './counter-session';

function LockIcon() {
  return (
    <svg
      className="button-icon"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
      focusable="false"
    >
      <rect x="5" y="11" width="14" height="10" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" strokeLinecap="round" />
    </svg>
  );
}

export function SignedInBadge() {
  const { signedIn, lock } = useCounterPerson();
  const [locking, setLocking] = useState(false);
  if (!signedIn) return null;
  const role = signedIn.role === 'manager' ? 'Manager' : 'Cashier';
  return (
    <div className="signed-in" data-testid="signed-in">
      <button
        type="button"
        className="signed-in-button"
        disabled={locking}
        title="Lock the counter; the next PIN signs in whoever it belongs to"
        onClick={() => {
          setLocking(true);
          lock().finally(() => setLocking(false));
        }}
      >
        <span className="signed-in-name">
          {signedIn.name}
          <span className="signed-in-role">{role}</span>
        </span>
        <span className="visually-hidden">: lock the counter</span>
        <LockIcon />
      </button>
    </div>
  );
}

/** The address a receipt is emailed to, and Send: an empty address sends it to the one given with the sale. */
import { BusyButton } from '../ui/BusyButton';

export function ReceiptEmailForm({
  address,
  onAddress,
  sending,
  onSend,
  inDialog = false,
}: {
  address: string;
  onAddress: (address: string) => void;
  sending: boolean;
  onSend: () => void;
  /** In a dialog, which gives the address the focus when it opens; otherwise it takes it itself. */
  inDialog?: boolean;
}) {
  return (
    <form
      className="receipt-email"
      onSubmit={(event) => {
        event.preventDefault();
        onSend();
      }}
    >
      <label className="field">
        <span className="field-label">
          Email address <span className="field-optional">(empty: the one sent with the sale)</span>
        </span>
        <input
          className="input"
          type="email"
          inputMode="email"
          autoComplete="off"
          maxLength={254}
          value={address}
          onChange={(event) => onAddress(event.target.value)}
          {...(inDialog ? { 'data-autofocus': true } : { autoFocus: true })}
        />
      </label>
      <BusyButton type="submit" className="button button-primary" busy={sending}>
        Send
      </BusyButton>
    </form>
  );
}

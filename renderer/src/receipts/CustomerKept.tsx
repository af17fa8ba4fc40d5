/**
 * What the customer left with a transaction, in its details: their signature, drawn on the screen
 * turned to them (read from the engine as a PNG), and the address their receipt was emailed to.
 * Nothing shows for a transaction that has neither.
 */
import { useTerminal } from '../terminal/terminal-context';
import { useLoad } from '../ui/use-load';

/** The PNG as a data: address, which the screens' content policy allows for images. */
function dataUrl(png: Uint8Array): string {
  let binary = '';
  for (const byte of png) binary += String.fromCharCode(byte);
  return `data:image/png;base64,${btoa(binary)}`;
}

export function CustomerKept({ id }: { id: string }) {
  const { client, bridge } = useTerminal();
  const kept = useLoad(async () => {
    const [signature, email] = await Promise.all([
      client.signature(id),
      bridge.invoke('receipts:kept-email', { id: Number(id) }),
    ]);
    return { signature: signature && dataUrl(signature), email: email.address };
  }, [bridge, client, id]);
  const { signature, email } = kept.data ?? {};
  if (!signature && !email) return null;
  return (
    <div className="customer-kept" data-testid="customer-kept">
      {signature && (
        <figure className="customer-kept-signature">
          <img src={signature} alt="The customer’s signature" width={300} height={100} />
          <figcaption>Signed on the customer screen</figcaption>
        </figure>
      )}
      {email && <p className="muted">Receipt emailed to {email}</p>}
    </div>
  );
}

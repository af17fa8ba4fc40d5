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
    const { signed, address } = await bridge.invoke('receipts:customer-kept', { id: Number(id) });
    // Asked for only when there is one: the engine's 404 would be a console error in a browser.
    const signature = signed ? await client.signature(id) : undefined;
    return { signature: signature && dataUrl(signature), email: address };
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

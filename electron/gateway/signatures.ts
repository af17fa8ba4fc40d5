/**
 * The customer's signature for a charge: checked (a real signature, on a charge that can take one),
 * kept once beside the transaction, and drawn as a PNG or for the receipt printer when asked for.
 */
import { z } from 'zod';
import {
  decodeSignature,
  encodeSignature,
  inkLength,
  MIN_SIGNATURE_INK,
  signatureStrokesSchema,
} from '../../shared/signature';
import { signatureRefusal } from './domain/signing';
import { drawSignature, SIGNATURE_PNG_SIZE, signaturePng } from './receipts/signature-image';
import type { CustomerRecords } from './store/customer-records';
import type { LedgerLookups } from './store/ledger-store';

export class SignatureRefusedError extends Error {
  constructor(
    readonly reason: 'not-signable' | 'already-signed' | 'not-a-signature',
    message: string,
  ) {
    super(message);
    this.name = 'SignatureRefusedError';
  }
}

export class Signatures {
  constructor(
    private readonly ledger: Pick<LedgerLookups, 'find'>,
    private readonly records: CustomerRecords,
    private readonly now: () => number,
  ) {}

  /** Keeps the strokes as the signature of an approved charge; refuses anything else, changing nothing. */
  async keep(transactionId: number, strokes: unknown): Promise<void> {
    const parsed = signatureStrokesSchema.safeParse(strokes);
    if (!parsed.success) {
      throw new SignatureRefusedError(
        'not-a-signature',
        `The signature could not be read: ${z.prettifyError(parsed.error)}`,
      );
    }
    if (inkLength(parsed.data) < MIN_SIGNATURE_INK) {
      throw new SignatureRefusedError(
        'not-a-signature',
        'That is too short for a signature. Sign in the box, then press Done.',
      );
    }
    const refusal = signatureRefusal(await this.ledger.find(transactionId), transactionId);
    if (refusal !== undefined) throw new SignatureRefusedError('not-signable', refusal);
    if (!(await this.records.keepSignature(transactionId, encodeSignature(parsed.data), this.now()))) {
      throw new SignatureRefusedError(
        'already-signed',
        `Transaction ${transactionId} is signed for already.`,
      );
    }
  }

  /** The kept strokes, or undefined when the transaction has no signature. */
  async strokes(transactionId: number): Promise<number[][] | undefined> {
    const kept = await this.records.signature(transactionId);
    return kept && decodeSignature(kept.strokes);
  }

  /** The signature as a PNG, or undefined when the transaction has none. */
  async png(transactionId: number): Promise<Buffer | undefined> {
    const strokes = await this.strokes(transactionId);
    return strokes && signaturePng(drawSignature(strokes, SIGNATURE_PNG_SIZE));
  }
}

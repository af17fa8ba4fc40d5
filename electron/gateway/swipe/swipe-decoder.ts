import type { ErrorCode } from '../domain/codes';

/** A swipe's card as its masked tracks show it: never the whole number. */
export interface MaskedCard {
  /** The first four digits, which the reader's masking leaves clear: enough for the brand. */
  leadingDigits: string;
  lastFour: string;
  /** The number of digits of the card number. */
  length: number;
}

/** Turns the encrypted_track_data of a swipe into card data. */
export interface SwipeDecoder {
  decode(encryptedTrackData: string):
    | { ok: true; pan: string; expMmyy: string; firstName?: string; lastName?: string; ksn: string }
    /**
     * Read without the reader's key, for a gateway that decrypts the swipe itself: the card as the
     * masked tracks show it, and the swipe to send on as it is.
     */
    | {
        ok: true;
        pan?: undefined;
        masked: MaskedCard;
        expMmyy: string;
        firstName?: string;
        lastName?: string;
        ksn: string;
      }
    | { ok: false; errorCode: ErrorCode; message: string };
}

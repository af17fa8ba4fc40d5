import type { ErrorCode } from '../domain/codes';

/** Turns the encrypted_track_data of a swipe into card data. */
export interface SwipeDecoder {
  decode(
    encryptedTrackData: string,
  ):
    | { ok: true; pan: string; expMmyy: string; firstName?: string; lastName?: string; ksn: string }
    | { ok: false; errorCode: ErrorCode; message: string };
}

/** The PIN hash and its gate live in the engine, which checks every staff PIN. */
export {
  hashPin,
  isStoredPin,
  PIN_ATTEMPTS,
  PIN_LOCK_MS,
  PinGate,
  pinMatches,
  type PinCheck,
  type StoredPin,
} from '../gateway/staff/pins';

/** The PIN hash and its gate live in the engine, which checks every staff PIN. */
export { hashPin, isStoredPin, pinMatches, type StoredPin } from '../gateway/staff/pins';

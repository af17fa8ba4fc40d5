/** What makes a new PIN acceptable, said the way the person choosing it needs to hear it. */
export function pinProblem(pin: string, repeat: string): string | undefined {
  if (!/^\d{4,8}$/.test(pin)) return 'A PIN has 4 to 8 digits.';
  if (pin !== repeat) return 'The two PINs differ. Type the same PIN twice.';
  if (/^(\d)\1+$/.test(pin) || '0123456789'.includes(pin) || '9876543210'.includes(pin)) {
    return 'Choose a PIN that is harder to guess than repeated or consecutive digits.';
  }
  return undefined;
}

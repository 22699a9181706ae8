// Whether this tab's session was just opened by an SMS code (forgot password), so that the
// change-password screen does not ask for the password the parent has forgotten. Only a hint
// for the form: the server decides (a session opened so may set the password once within 30
// minutes); when the hint is wrong, the server's answer asks for the current password.
const KEY = 'password-reset-until';
const WINDOW_MS = 30 * 60_000;

export function markPasswordReset() {
  try {
    sessionStorage.setItem(KEY, String(Date.now() + WINDOW_MS));
  } catch {
    // Storage refused (private mode): the form asks for the current password; the server's answer corrects it.
  }
}

export function isPasswordReset(): boolean {
  try {
    return Number(sessionStorage.getItem(KEY)) > Date.now();
  } catch {
    return false;
  }
}

export function clearPasswordReset() {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}

// Scaffold: this screen is built by its feature's issue.
export function ForgotPasswordPage() {
  return <div className="container page" />;
}

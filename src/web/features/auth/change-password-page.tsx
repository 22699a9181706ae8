// Scaffold: this screen is built by its feature's issue.
export function ChangePasswordPage() {
  return <div className="container page" />;
}

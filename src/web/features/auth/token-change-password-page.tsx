// Scaffold: this screen is built by its feature's issue.
export function TokenChangePasswordPage() {
  return <div className="container page" />;
}

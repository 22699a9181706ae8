// Scaffold: this screen is built by its feature's issue.
export function RegisterPage() {
  return <div className="container page" />;
}

// Scaffold: this screen is built by its feature's issue.
export function LoginPage() {
  return <div className="container page" />;
}

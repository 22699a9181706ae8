// Scaffold: this screen is built by its feature's issue.
export function ProfilePage() {
  return <div className="container page" />;
}

import { Router } from 'wouter';
import { Layout } from './layout';

export function App() {
  return (
    <Router>
      <Layout />
    </Router>
  );
}

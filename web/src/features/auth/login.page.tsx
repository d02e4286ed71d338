import { AuthShell } from '../../components/ui/auth-shell';
import { LoginForm } from './components/login-form';

/** /login (SPEC.md §2 "Sign-in screen"). */
export function LoginPage() {
  return (
    <AuthShell title="Sign in">
      <LoginForm />
    </AuthShell>
  );
}

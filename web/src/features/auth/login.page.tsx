import { AuthShell } from '../../components/ui/auth-shell';
import { LoginForm } from './components/login-form';

/** /login (docs/reference.md "Sign-in and password screens"). */
export function LoginPage() {
  return (
    <AuthShell title="Sign in">
      <LoginForm />
    </AuthShell>
  );
}

import { Link } from 'react-router-dom';
import { Brand } from '../../components/ui/brand';

/** Placeholder: registration with an invite code lands in a later issue. */
export function RegisterPage() {
  return (
    <main className="flex min-h-screen items-center justify-center bg-gradient-to-br from-slate-50 to-indigo-50 px-4 py-12">
      <div className="w-full max-w-sm rounded-2xl border border-slate-200 bg-white p-6 text-center shadow-sm">
        <Brand size="lg" className="justify-center" />
        <h1 className="mt-4 text-xl font-semibold text-slate-900">Register</h1>
        <p className="mt-2 text-sm text-slate-500">Registration with an invite code is coming soon.</p>
        <Link to="/login" className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:text-indigo-500">
          Sign in
        </Link>
      </div>
    </main>
  );
}

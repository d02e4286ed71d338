import type { ReactNode } from 'react';
import { cx } from './cx';

export interface ErrorScreenProps {
  /** The heading, e.g. 'Unexpected Application Error!' (docs/reference.md "Routing rules"). */
  title: string;
  /** What went wrong, e.g. 'Loading chunk failed' or '404 Not Found'. */
  detail: string;
  description?: ReactNode;
  /** The ways out (e.g. Go to dashboard, Reload). */
  actions: ReactNode;
  /** The whole window (outside the app frame) or the content area of the frame. */
  fullScreen?: boolean;
}

/** A designed error screen: what happened, in plain words, and a way back. */
export function ErrorScreen({ title, detail, description, actions, fullScreen }: ErrorScreenProps) {
  const Wrapper = fullScreen ? 'main' : 'div';
  return (
    <Wrapper
      className={cx(
        'flex items-center justify-center px-4',
        fullScreen ? 'min-h-screen bg-gradient-to-br from-slate-50 to-indigo-50 py-12' : 'py-16',
      )}
      data-testid="error-screen"
    >
      <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-sm">
        <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-600">
          <svg
            viewBox="0 0 24 24"
            className="h-6 w-6"
            fill="none"
            stroke="currentColor"
            strokeWidth={1.75}
            aria-hidden="true"
          >
            <path
              strokeLinecap="round"
              strokeLinejoin="round"
              d="M12 9v4m0 4h.01M10.3 3.9 2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z"
            />
          </svg>
        </div>
        <h1 className="mt-4 text-xl font-semibold text-slate-900">{title}</h1>
        <h2 className="mt-2 text-base font-medium text-red-700" data-testid="error-detail">
          {detail}
        </h2>
        {description ? <p className="mt-3 text-sm text-slate-600">{description}</p> : null}
        <div className="mt-6 flex flex-wrap items-center justify-center gap-3">{actions}</div>
      </div>
    </Wrapper>
  );
}

import { useId, type ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
  valueTestId?: string;
}

/**
 * One figure of a stats row; the value is labelled by its caption for assistive technology and tests. On a phone it
 * is compact (smaller type and padding, no icon, the action beside the figure), so a row of them leaves room for what
 * the page is about; from the small breakpoint up the action goes under the figure.
 */
export function StatCard({ label, value, detail, action, icon, valueTestId }: StatCardProps) {
  const labelId = useId();
  return (
    <section
      aria-labelledby={labelId}
      className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-3 rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5"
    >
      <div className="min-w-0">
        <h2 id={labelId} className="text-xs font-medium text-slate-500 sm:text-sm">
          {label}
        </h2>
        <p
          className="mt-0.5 text-xl font-semibold tracking-tight text-slate-900 sm:mt-1 sm:text-3xl"
          data-testid={valueTestId}
        >
          {value}
        </p>
        {detail ? <p className="mt-0.5 text-xs text-slate-500 sm:mt-1 sm:text-sm">{detail}</p> : null}
      </div>
      {icon ? (
        <div className="hidden rounded-lg bg-indigo-50 p-2 text-indigo-600 sm:block" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      {action ? <div className="self-center sm:col-span-2 sm:self-end">{action}</div> : null}
    </section>
  );
}

import { useId, type ReactNode } from 'react';

export interface StatCardProps {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
  valueTestId?: string;
}

/** One figure of a stats row; the value is labelled by its caption for assistive technology and tests. */
export function StatCard({ label, value, detail, action, icon, valueTestId }: StatCardProps) {
  const labelId = useId();
  return (
    <section
      aria-labelledby={labelId}
      className="flex flex-col justify-between gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id={labelId} className="text-sm font-medium text-slate-500">
            {label}
          </h2>
          <p className="mt-1 text-3xl font-semibold tracking-tight text-slate-900" data-testid={valueTestId}>
            {value}
          </p>
          {detail ? <p className="mt-1 text-sm text-slate-500">{detail}</p> : null}
        </div>
        {icon ? (
          <div className="rounded-lg bg-indigo-50 p-2 text-indigo-600" aria-hidden="true">
            {icon}
          </div>
        ) : null}
      </div>
      {action ? <div>{action}</div> : null}
    </section>
  );
}

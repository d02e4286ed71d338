import { useId, type ReactNode } from 'react';

/** One section of the Settings page: a titled card, named by its heading for assistive technology. */
export function SettingsSection({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description: ReactNode;
  children: ReactNode;
  /** Its anchor: `/dashboard/settings#<id>` leads to it. */
  id?: string;
}) {
  const headingId = useId();
  return (
    <section
      id={id}
      className="scroll-mt-20 rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-500">{description}</p>
      {children}
    </section>
  );
}

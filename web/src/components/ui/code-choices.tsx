/**
 * A group of checkboxes, one per option: its words and its code (an API key's scopes, a webhook's events). The chosen
 * ones stay in the options' order.
 */
export function CodeChoices<T extends string>({
  legend,
  options,
  labels,
  chosen,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  labels: Record<T, string>;
  chosen: readonly T[];
  onChange: (chosen: T[]) => void;
}) {
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 space-y-2">
        {options.map((option) => (
          <label key={option} className="flex items-start gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300"
              checked={chosen.includes(option)}
              onChange={(e) => onChange(options.filter((o) => (o === option ? e.target.checked : chosen.includes(o))))}
            />
            <span className="min-w-0">
              {labels[option]} <code className="text-xs break-words text-slate-500">{option}</code>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * A CSV cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR) is given a leading quote (OWASP CSV
 * injection); null is empty.
 */
export const csvCell = (value: string | null | undefined): string =>
  value && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? '');

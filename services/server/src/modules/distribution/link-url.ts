/** A link's address on the dashboard: the recipient page of its code. */
export const linkUrl = (dashboardUrl: string, code: string) => `${dashboardUrl.replace(/\/+$/, '')}/l/${code}`;

import { EN_GB_DATE_TIME } from '@seatlink/contracts';

/** Times in e-mails are written as in the dashboard (en-GB, 24-hour), in the United Kingdom's time. */
export const MAIL_TIME_ZONE = 'Europe/London';
const mailTime = new Intl.DateTimeFormat('en-GB', { ...EN_GB_DATE_TIME, timeZone: MAIL_TIME_ZONE });
export const formatMailTime = (iso: string) => mailTime.format(new Date(iso));

/**
 * Operations whose success body the API document does not describe yet (no `@Answers()`): their answers are held to
 * their status, content type and headers, not yet to a body schema. The list only shrinks: a call given its answer's
 * schema leaves it (the OpenAPI spec fails while a described operation is still listed, or a new one lacks a schema).
 */
export const UNDESCRIBED_ANSWERS: ReadonlySet<string> = new Set([
  'webhooksCreate',
  'webhooksDeliveriesOf',
  'webhooksList',
  'webhooksRemove',
  'webhooksResend',
  'webhooksRoll',
  'webhooksTest',
  'webhooksUpdate',
]);

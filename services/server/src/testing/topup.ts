/** A billing address the test gateway takes. */
export const billing = {
  email: 'payer@example.com',
  name: 'Ada Lovelace',
  address: { line1: '1 High Street', line2: null, city: 'London', state: null, postal_code: 'N1 9GU', country: 'GB' },
  phone: null,
};

/** A POST /v1/topup body: `amount` pounds by the test gateway's card `paymentId` (a Visa that pays by default). */
export const topupBody = (amount: number, paymentId = 'pm_card_visa') => ({
  payment_id: paymentId,
  amount,
  email: 'payer@example.com',
  billing_info: billing,
});

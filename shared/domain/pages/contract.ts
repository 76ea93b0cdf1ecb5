// TEMPORARY: the lead's shared/domain/checkout/public.ts contract, until it lands.
export type CheckoutMethod = 'pix' | 'boleto' | 'card';
export interface PaymentOutcome {
  paymentId: string;
  status: 'pending' | 'paid' | 'declined' | 'failed' | 'canceled';
  method: CheckoutMethod;
  value: number;
  installments: number;
  pix: { qrCode: string; qrCodeImage: string; expiresAt: string } | null;
  boleto: {
    digitableLine: string;
    formattedLine: string;
    barcode: string;
    dueDate: string;
    pdfUrl: string;
  } | null;
  card: { brand: string; last4: string } | null;
  failure: { code: string; message: string } | null;
  redirectUrl: string | null;
}
export interface CheckoutView {
  kind: 'product' | 'session';
  ref: string;
  state: 'open' | 'complete' | 'expired' | 'unavailable';
  unavailableReason: 'inactive' | 'not_for_sale' | null;
  environment: 'test' | 'live';
  product: {
    uuid: string;
    name: string;
    description: string | null;
    image: string | null;
    value: number;
    methods: CheckoutMethod[];
    maxInstallments: number;
  };
  customer: {
    name: string | null;
    email: string | null;
    document: string | null;
    phone: string | null;
    zipCode: string | null;
    street: string | null;
    number: string | null;
    complement: string | null;
    neighborhood: string | null;
    city: string | null;
    state: string | null;
  };
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: string | null;
  payment: PaymentOutcome | null;
}

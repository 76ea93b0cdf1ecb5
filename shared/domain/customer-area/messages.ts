// Answers the route table names in its descriptions, apart from the use case modules so that the
// table does not load them (and their zod schemas) at cold start.
export const CUSTOMER_GONE = 'Customer not found';
export const NO_RELATIONSHIP = 'Você não tem cobranças nem pagamentos com este vendedor';

-- The provider's receipt of a paid checkout (Stripe's hosted invoice or charge receipt), shown on
-- the page a person lands on after paying.
alter table checkout_sessions add column receipt_url text;

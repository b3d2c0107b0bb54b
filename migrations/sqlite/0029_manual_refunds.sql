-- Guarantee refunds paid by hand (issue 48): Stripe cannot refund a boleto
-- (https://docs.stripe.com/payments/boleto#refunds: "Refunds / Partial refunds: No / No"), so a
-- boleto payment cancelled within the 7-day guarantee is refunded by Pix. The person gives a Pix
-- key (on WhatsApp or the site); an admin pays and marks it paid, and only then is the person told
-- it was refunded. One per subscription. Kept when the person erases their data (money we owe).
create table manual_refunds (
    id text primary key,
    user_id text,
    subscription_id text not null unique,
    amount_cents bigint not null,
    -- How the person paid: "boleto".
    paid_with text not null,
    -- "awaiting_key" (no Pix key yet), "to_pay" (key given), "paid".
    status text not null,
    pix_key text,
    requested_at bigint not null,
    key_given_at bigint,
    paid_at bigint,
    paid_by text
);
create index manual_refunds_user_idx on manual_refunds (user_id, status);
create index manual_refunds_status_idx on manual_refunds (status, requested_at);

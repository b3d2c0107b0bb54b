-- The provider's checkout address, so that asking again for the same plan reopens the session
-- still open instead of creating (and, with Stripe, paying for the creation of) another.
alter table checkout_sessions add column checkout_url text;
create index checkout_sessions_open_idx on checkout_sessions (user_id, status, created_at);

-- A manual refund pays the key the admin was shown (issue 62): the key is kept as given once the
-- refund is to be paid, the admin's "paid" names the key they paid and is refused if it is not the
-- refund's, and the key paid is recorded here.
alter table manual_refunds add column paid_pix_key text;

-- Who opened a checkout (issue 42), so that asking again reopens it only for the same requester:
-- "person:<user id>" for the person themselves (logged in, or through the signed link we sent
-- them), "address:<client address>" for an anonymous ask by number. Someone else asking with the
-- same number gets a checkout of their own, never the person's open one. Older rows (null) are
-- reopened for nobody.
alter table checkout_sessions add column opened_by text;

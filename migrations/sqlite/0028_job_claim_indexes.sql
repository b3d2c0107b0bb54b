-- What the job queue's claim looks up, whatever the size of its history (issue 46): due jobs of a
-- kind, and running jobs of a kind whose lease ran out. The queue keeps every finished job, and
-- the claim used to walk every running job of every kind through (status, run_at) — a thousand
-- replies in flight made each claim of a send read a thousand rows. Partial indexes hold only the
-- live rows, so a claim costs the same with ten jobs done or ten million.
create index jobs_due_idx on jobs (kind, run_at) where status = 'queued';
create index jobs_lease_idx on jobs (kind, locked_until) where status = 'running';

-- The landing page's newsletter: addresses given with consent (LGPD: the consent's time is kept).

create table newsletter_subscribers (
    email text primary key,
    language text not null,
    consented_at bigint not null,
    created_at bigint not null
);

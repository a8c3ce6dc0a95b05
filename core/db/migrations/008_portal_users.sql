-- Portal people: users who sign in with email and password, their sessions, their memberships of
-- accounts (with a role, optionally limited to some languages), and one-time invitations.
-- Secrets (passwords, session ids, invite tokens) are stored only as hashes.

create table users (
  id uuid primary key default gen_random_uuid(),
  -- Stored lower-cased and trimmed (core/users/email.ts): one address, one user.
  email text not null unique,
  -- scrypt$N$r$p$salt$hash (base64url), core/users/password.ts.
  password_hash text not null,
  created_at timestamptz not null default now()
);

create table user_sessions (
  -- sha256 of the cookie's value, hex: a leaked table does not hand out sessions.
  id_hash text primary key,
  user_id uuid not null references users (id) on delete cascade,
  -- The session's CSRF token (not a credential on its own: it only accompanies the cookie).
  csrf_token text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index user_sessions_user_idx on user_sessions (user_id);

create table memberships (
  user_id uuid not null references users (id) on delete cascade,
  account_id uuid not null references accounts (id) on delete cascade,
  role text not null check (role in ('owner', 'developer', 'reviewer', 'translator')),
  -- Null: every language. Otherwise the languages a translator or reviewer may edit.
  languages text[],
  created_at timestamptz not null default now(),
  primary key (user_id, account_id)
);
create index memberships_account_idx on memberships (account_id);

create table invites (
  id uuid primary key default gen_random_uuid(),
  -- sha256 of the one-time token, hex; the link carries the token itself.
  token_hash text not null unique,
  account_id uuid not null references accounts (id) on delete cascade,
  role text not null check (role in ('owner', 'developer', 'reviewer', 'translator')),
  languages text[],
  created_by uuid references users (id) on delete set null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_by uuid references users (id) on delete set null
);
create index invites_account_idx on invites (account_id);

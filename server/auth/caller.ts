/** Who made a request (`request.auth`): a user, and how they proved it. Null on the request when nobody is logged in. */
export type Auth = {
  /** isAdmin: a site administrator (server/admin/admins.ts): the game master of every game. */
  user: { id: string; username: string; createdAt: Date; isAdmin: boolean };
  sessionId: string;
  via: 'cookie' | 'api_token';
  /** For cookie sessions: the value the X-CSRF-Token header must carry on writes. */
  csrfToken: string | null;
};

// Signing in: sessions and the JWTs bound to them, the sign-in throttle, and sign-in through external
// OpenID Connect providers.
import { defineFeature } from '../plugins/feature.js';
import { LoginThrottle } from './login-throttle.js';
import { OidcSignIn } from './oidc-sign-in.js';
import { SessionStore } from './session-store.js';

declare module '../plugins/feature.js' {
  interface PlatformServices {
    sessions: SessionStore;
    loginThrottle: LoginThrottle;
    /** Sign-in through external OpenID Connect providers. */
    oidc: OidcSignIn;
  }
}

export const authFeature = defineFeature({
  name: 'auth',
  needs: ['config', 'db', 'signer', 'oauth', 'audit', 'caches'],
  offers: ['sessions', 'loginThrottle', 'oidc'],
  build: ({ config, db, signer, oauth, audit, caches }, app) => {
    // OAuth access tokens for the main API act as the person who granted them.
    const sessions = new SessionStore(
      db,
      signer,
      config.sessionDays,
      app.log,
      caches,
      (token) => oauth.verifyAccessToken(token),
      (sessionId, userId) => oauth.grantIsLive(sessionId, userId),
    );
    app.addHook('onClose', async () => sessions.flush());
    const loginThrottle = new LoginThrottle(config, db, app.log);
    app.addHook('onReady', async () => loginThrottle.start());
    app.addHook('onClose', async () => loginThrottle.stop());
    return {
      sessions,
      loginThrottle,
      oidc: new OidcSignIn(db, sessions, audit, config.admin, config.publicUrl, caches),
    };
  },
});

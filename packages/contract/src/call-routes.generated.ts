// Generated from `calls` by `npm run generate -w @prism/contract`; do not edit.
// The routes of every console call without their zod schemas (see call-routes.ts). call-routes.test.ts
// fails when this file is stale.
import type { CallRoutesOf } from "./call-routes";
import type { calls } from "./calls";

export const callRoutes = {
  system: {
    publicConfig: {
      path: "/v1/public-config",
      auth: "public",
      timeoutMs: 5000,
    },
  },
  users: {
    login: {
      path: "/v1/users/login",
      auth: "public",
    },
    create: {
      path: "/v1/users/create",
      auth: "public",
      timeoutMs: 10000,
    },
    confirm: {
      path: "/v1/users/confirm",
      auth: "public",
      timeoutMs: 10000,
    },
    forgotPassword: {
      path: "/v1/users/forgot-password",
      auth: "public",
    },
    resetPassword: {
      path: "/v1/users/reset-password",
      auth: "public",
      timeoutMs: 10000,
    },
    googleLogin: {
      path: "/v1/users/google-login-request",
      auth: "public",
      timeoutMs: 7000,
    },
    githubLogin: {
      path: "/v1/users/github-login-request",
      auth: "public",
      timeoutMs: 7000,
    },
    me: {
      path: "/v1/users/me",
      auth: "session",
      timeoutMs: 5000,
    },
    logout: {
      path: "/v1/users/logout",
      auth: "session",
      timeoutMs: 5000,
    },
    logoutAllSessions: {
      path: "/v1/users/logout-all-sessions",
      auth: "session",
    },
    updateProfile: {
      path: "/v1/users/settings/update-profile",
      auth: "session",
    },
    changePassword: {
      path: "/v1/users/change-password",
      auth: "session",
    },
  },
  organizations: {
    create: {
      path: "/v1/users/organizations/create",
      auth: "session",
    },
    firstSteps: {
      path: "/v1/users/organizations/first-steps",
      auth: "session",
    },
    updateName: {
      path: "/v1/users/organizations/update-name",
      auth: "session",
    },
    delete: {
      path: "/v1/users/organizations/delete",
      auth: "session",
    },
    changeOwner: {
      path: "/v1/users/organizations/change-owner",
      auth: "session",
    },
    updateBilling: {
      path: "/v1/users/organizations/update-billing",
      auth: "session",
    },
    updateSecurity: {
      path: "/v1/users/organizations/update-security",
      auth: "session",
    },
  },
  members: {
    checkInvitation: {
      path: "/v1/users/organization-members/check-invitation",
      auth: "public",
    },
    list: {
      path: "/v1/users/organization-members/list",
      auth: "session",
    },
    invite: {
      path: "/v1/users/organization-members/invite",
      auth: "session",
    },
    confirmInvitation: {
      path: "/v1/users/organization-members/confirm-invitation",
      auth: "session",
    },
    revokeInvitation: {
      path: "/v1/users/organization-members/revoke-invitation",
      auth: "session",
    },
    remove: {
      path: "/v1/users/organization-members/remove",
      auth: "session",
    },
    editPermissions: {
      path: "/v1/users/organization-members/edit-permissions",
      auth: "session",
    },
  },
  projects: {
    create: {
      path: "/v1/users/projects/create",
      auth: "session",
    },
    update: {
      path: "/v1/users/projects/update",
      auth: "session",
      timeoutMs: 5000,
    },
    delete: {
      path: "/v1/users/projects/delete",
      auth: "session",
      timeoutMs: 5000,
    },
  },
  apiKeys: {
    list: {
      path: "/v1/users/api-keys/list",
      auth: "session",
    },
    insert: {
      path: "/v1/users/api-keys/insert",
      auth: "session",
    },
    update: {
      path: "/v1/users/api-keys/update",
      auth: "session",
    },
    delete: {
      path: "/v1/users/api-keys/delete",
      auth: "session",
    },
    details: {
      path: "/v1/users/api-keys/details",
      auth: "session",
    },
  },
  payments: {
    getPaymentInfo: {
      path: "/v1/payments/get-payment-info",
      auth: "session",
    },
    startSetupPayment: {
      path: "/v1/payments/start-setup-payment",
      auth: "session",
    },
    finishSetupPayment: {
      path: "/v1/payments/finish-setup-payment",
      auth: "session",
    },
    deletePayment: {
      path: "/v1/payments/delete-payment",
      auth: "session",
    },
    updateAutoRecharge: {
      path: "/v1/payments/update-auto-recharge",
      auth: "session",
    },
    rechargeAccount: {
      path: "/v1/payments/recharge-account",
      auth: "session",
    },
    sandboxConfirmSetup: {
      path: "/v1/payments/sandbox/confirm-setup",
      auth: "public",
    },
  },
  invoices: {
    get: {
      path: "/v1/users/invoices/get",
      auth: "session",
    },
    retrieveLink: {
      path: "/v1/users/invoices/retrieve-link",
      auth: "session",
    },
  },
  playground: {
    getFeatureStatus: {
      path: "/v1/users/playground/feature-status",
      auth: "session",
    },
    getRequests: {
      path: "/v1/users/playground/get-requests",
      auth: "session",
    },
    deleteRequest: {
      path: "/v1/users/playground/delete-request",
      auth: "session",
    },
    getTrainedIdentities: {
      path: "/v1/users/playground/get-trained-identities",
      auth: "session",
    },
  },
  statistics: {
    get: {
      path: "/v1/users/statistics/get",
      auth: "session",
      timeoutMs: 5000,
    },
  },
  requests: {
    list: {
      path: "/v1/users/requests/list",
      auth: "session",
    },
    get: {
      path: "/v1/users/requests/get",
      auth: "session",
    },
  },
  twoFactor: {
    status: {
      path: "/v1/users/two-factor/status",
      auth: "session",
      timeoutMs: 5000,
    },
    start: {
      path: "/v1/users/two-factor/start",
      auth: "session",
    },
    enable: {
      path: "/v1/users/two-factor/enable",
      auth: "session",
    },
    disable: {
      path: "/v1/users/two-factor/disable",
      auth: "session",
    },
    verify: {
      path: "/v1/users/two-factor/verify",
      auth: "public",
    },
    regenerateRecoveryCodes: {
      path: "/v1/users/two-factor/regenerate-recovery-codes",
      auth: "session",
    },
  },
  sessions: {
    list: {
      path: "/v1/users/sessions/list",
      auth: "session",
      timeoutMs: 5000,
    },
    revoke: {
      path: "/v1/users/sessions/revoke",
      auth: "session",
    },
  },
  passkeys: {
    list: {
      path: "/v1/users/passkeys/list",
      auth: "session",
      timeoutMs: 5000,
    },
    registrationOptions: {
      path: "/v1/users/passkeys/registration-options",
      auth: "session",
    },
    register: {
      path: "/v1/users/passkeys/register",
      auth: "session",
    },
    remove: {
      path: "/v1/users/passkeys/remove",
      auth: "session",
    },
    authenticationOptions: {
      path: "/v1/users/passkeys/authentication-options",
      auth: "public",
    },
    signIn: {
      path: "/v1/users/passkeys/sign-in",
      auth: "public",
    },
    removeWithLink: {
      path: "/v1/users/passkeys/remove-with-link",
      auth: "public",
    },
  },
  reauthentication: {
    options: {
      path: "/v1/users/reauthentication/options",
      auth: "session",
    },
    reauthenticate: {
      path: "/v1/users/reauthenticate",
      auth: "session",
    },
  },
  webhooks: {
    list: {
      path: "/v1/organizations/webhooks/list",
      auth: "session",
    },
    insert: {
      path: "/v1/organizations/webhooks/insert",
      auth: "session",
    },
    update: {
      path: "/v1/organizations/webhooks/update",
      auth: "session",
    },
    delete: {
      path: "/v1/organizations/webhooks/delete",
      auth: "session",
    },
    deliveries: {
      path: "/v1/organizations/webhooks/deliveries",
      auth: "session",
    },
    resend: {
      path: "/v1/organizations/webhooks/resend",
      auth: "session",
    },
    sendTest: {
      path: "/v1/organizations/webhooks/send-test",
      auth: "session",
    },
    callSecret: {
      path: "/v1/organizations/webhooks/call-secret",
      auth: "session",
    },
    rotateCallSecret: {
      path: "/v1/organizations/webhooks/rotate-call-secret",
      auth: "session",
    },
    callDeliveries: {
      path: "/v1/organizations/webhooks/call-deliveries",
      auth: "session",
    },
  },
  alerts: {
    get: {
      path: "/v1/payments/get-alerts",
      auth: "session",
    },
    update: {
      path: "/v1/payments/update-alerts",
      auth: "session",
    },
  },
  audit: {
    list: {
      path: "/v1/users/audit-log/list",
      auth: "session",
    },
  },
} as const satisfies CallRoutesOf<typeof calls>;

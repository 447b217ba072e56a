import {
  INVOICE_LINK_EXPIRED,
  INVOICE_LINK_EXPIRED_TITLE,
  INVOICE_LINK_RENEW,
  OPEN_INVOICES_LABEL,
  PRODUCT_NAME,
} from "@prism/contract";

/**
 * What a browser tab shows for an invoice link that was used or expired: the reason and the way to a
 * new link, in the console's look, instead of the JSON error body. Plain HTML with inline styles (the
 * security headers allow inline styles, no scripts), linking to the console's Invoices page.
 */
export function invoiceLinkExpiredPage(invoicesPath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${INVOICE_LINK_EXPIRED_TITLE} · ${PRODUCT_NAME}</title>
</head>
<body style="margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f8f9fc;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Helvetica,Arial,sans-serif;color:#1f2330">
<main style="box-sizing:border-box;max-width:480px;width:calc(100% - 32px);background:#ffffff;border:1px solid #e6e6ef;border-radius:12px;padding:32px">
<p style="margin:0 0 16px;font-size:18px;font-weight:700;color:#4c3bcf">${PRODUCT_NAME}</p>
<h1 style="margin:0 0 12px;font-size:22px;line-height:1.3">${INVOICE_LINK_EXPIRED_TITLE}</h1>
<p style="margin:0 0 12px;font-size:15px;line-height:1.6">${INVOICE_LINK_EXPIRED}</p>
<p style="margin:0 0 24px;font-size:15px;line-height:1.6;color:#4b5063">${INVOICE_LINK_RENEW}</p>
<a href="${invoicesPath}" style="display:inline-block;background:#5b48e8;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:8px;font-weight:600;font-size:15px">${OPEN_INVOICES_LABEL}</a>
</main>
</body>
</html>`;
}

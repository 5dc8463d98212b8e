import type { InvoiceDocument, InvoiceRenderer } from '@ephemail/core';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

const money = (cents: number, currency: string): string => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
const day = (iso: string): string => iso.slice(0, 10);

/**
 * Invoice PDFs on pdf-lib: one A4 page with the invoice's number, period and lines, and the
 * total. Standard fonts only (WinAnsi), so a character they lack is replaced rather than failing.
 */
export const createPdfInvoiceRenderer = (seller = 'ephemail'): InvoiceRenderer => ({
  render: async (invoice: InvoiceDocument) => {
    const pdf = await PDFDocument.create();
    pdf.setTitle(`Invoice ${invoice.id}`);
    pdf.setProducer(seller);
    pdf.setCreationDate(new Date(invoice.createdAt));
    const page = pdf.addPage([595.28, 841.89]);
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
    const safe = (text: string): string => [...text].map((c) => (font.getCharacterSet().includes(c.codePointAt(0)!) ? c : '?')).join('');
    let y = 780;
    const line = (text: string, options: { size?: number; bold?: boolean; x?: number } = {}) => {
      page.drawText(safe(text), { x: options.x ?? 56, y, size: options.size ?? 11, font: options.bold ? bold : font, color: rgb(0.1, 0.1, 0.1) });
    };
    line(`${seller} invoice`, { size: 20, bold: true });
    y -= 36;
    for (const [label, value] of [
      ['Invoice', invoice.id],
      ['Organization', invoice.orgId],
      ['Issued', day(invoice.createdAt)],
      ['Period', `${day(invoice.periodStart)} to ${day(invoice.periodEnd)}`],
      ['Provider reference', `${invoice.provider} ${invoice.providerReference}`],
    ] as const) {
      line(label, { bold: true });
      line(value, { x: 200 });
      y -= 18;
    }
    y -= 18;
    line('Description', { bold: true });
    line('Amount', { bold: true, x: 440 });
    y -= 18;
    for (const item of invoice.lines) {
      line(item.description);
      line(money(item.amountCents, invoice.currency), { x: 440 });
      y -= 18;
    }
    y -= 8;
    line('Total', { bold: true });
    line(money(invoice.amountCents, invoice.currency), { bold: true, x: 440 });
    y -= 18;
    line('Paid', { size: 10 });
    return pdf.save();
  },
});

// Words that say what a mail is about when it is not signing anyone in: commerce (orders,
// invoices, receipts, shipping, coupons), reports and digests, backups, scheduled jobs and builds,
// monitoring and security-tool notices. General words in many languages (stems where words
// inflect); matched as lexicon.ts's compileWords does. Read by mail-topic.ts.

/** Topics of mail that carries numbers and links but no secret to use. */
export const OTHER_TOPIC_WORDS: readonly string[] = [
  // en
  'order', 'invoice', 'receipt', 'payment', 'purchase', 'shipped', 'shipping', 'shipment', 'delivery',
  'tracking number', 'refund', 'renewal', 'backup', 'cron', 'scheduled task', 'job', 'build', 'pipeline',
  'deploy', 'report', 'summary', 'digest', 'newsletter', 'weekly', 'monthly', 'coupon', 'promo', 'discount',
  'sale', 'offer', 'voucher', 'scan', 'vulnerabilit', 'malware', 'virus', 'threat', 'monitor', 'uptime',
  'downtime', 'incident', 'disk', 'usage', 'quota', 'statistic', 'webinar', 'backup completed', 'succeeded',
  'failed', 'alert', 'critical', 'warning',
  // de, nl, sv, da, nb, fi
  'bestellung', 'rechnung', 'quittung', 'zahlung', 'versand', 'lieferung', 'sendungsverfolgung', 'sicherung',
  'bericht', 'zusammenfassung', 'gutschein', 'rabatt', 'angebot', 'bestelling', 'factuur', 'betaling',
  'verzending', 'levering', 'korting', 'aanbieding', 'beställning', 'faktura', 'kvitto', 'betalning',
  'leverans', 'säkerhetskopi', 'bestilling', 'kvittering', 'sikkerhedskopi', 'sikkerhetskopi', 'tilaus',
  'lasku', 'kuitti', 'maksu', 'toimitus', 'varmuuskopi', 'raportti', 'alennus',
  // fr, es, it, pt, ca, ro
  'commande', 'facture', 'reçu', 'paiement', 'expédi', 'livraison', 'sauvegarde', 'rapport', 'résumé',
  'bon de réduction', 'réduction', 'offre', 'pedido', 'factura', 'recibo', 'pago', 'envío', 'entrega',
  'copia de seguridad', 'informe', 'resumen', 'cupón', 'descuento', 'oferta', 'ordine', 'fattura',
  'ricevuta', 'pagamento', 'spedizion', 'consegna', 'rapporto', 'riepilogo', 'sconto', 'offerta', 'fatura',
  'envio', 'relatório', 'resumo', 'cupom', 'desconto', 'comanda', 'factură', 'plată', 'livrare', 'raport',
  'reducere',
  // pl, cs, sk, hu, tr
  'zamówienie', 'płatność', 'wysyłka', 'dostawa', 'kopia zapasowa', 'rabat', 'kupon', 'promocja',
  'objednávk', 'faktura', 'platba', 'doprava', 'záloha', 'zpráva o', 'sleva', 'zľava', 'rendelés', 'számla',
  'fizetés', 'szállítás', 'biztonsági mentés', 'jelentés', 'kedvezmény', 'sipariş', 'ödeme', 'kargo',
  'teslimat', 'yedekleme', 'rapor', 'indirim', 'kampanya',
  // ru, uk, bg, sr, el
  'заказ', 'счёт', 'счет-фактур', 'оплат', 'доставк', 'резервн', 'отчёт', 'отчет', 'скидк', 'купон', 'акция',
  'замовлення', 'рахунок', 'звіт', 'знижк', 'поръчка', 'фактура', 'плащане', 'отстъпка', 'поруџбин',
  'παραγγελία', 'τιμολόγιο', 'απόδειξη', 'πληρωμή', 'αποστολή', 'αντίγραφο ασφαλείας', 'αναφορά', 'έκπτωση',
  // ar, he, fa, hi, bn, th, vi, id, ms
  'طلبك', 'فاتورة', 'إيصال', 'الدفع', 'الشحن', 'التوصيل', 'نسخ احتياطي', 'تقرير', 'خصم', 'قسيمة', 'חשבונית',
  'תשלום', 'משלוח', 'גיבוי', 'דוח', 'הנחה', 'سفارش', 'فاکتور', 'پرداخت', 'ارسال', 'پشتیبان‌گیری', 'گزارش',
  'تخفیف', 'ऑर्डर', 'चालान', 'भुगतान', 'डिलीवरी', 'रिपोर्ट', 'छूट', 'অর্ডার', 'চালান', 'পেমেন্ট', 'ডেলিভারি',
  'ছাড়', 'คำสั่งซื้อ', 'ใบแจ้งหนี้', 'ใบเสร็จ', 'ชำระเงิน', 'จัดส่ง', 'สำรองข้อมูล', 'รายงาน', 'ส่วนลด',
  'đơn hàng', 'hóa đơn', 'thanh toán', 'giao hàng', 'sao lưu', 'báo cáo', 'giảm giá', 'pesanan', 'faktur',
  'pembayaran', 'pengiriman', 'cadangan', 'laporan', 'diskon', 'pesanan anda', 'resit', 'penghantaran',
  'sandaran',
  // ja, ko, zh
  '注文', '請求書', '領収書', 'お支払い', '発送', '配送', 'バックアップ', 'レポート', '割引', 'クーポン', '주문',
  '청구서', '영수증', '결제', '배송', '백업', '보고서', '할인', '쿠폰', '订单', '訂單', '发票', '發票', '收据',
  '收據', '付款', '发货', '發貨', '备份', '備份', '报告', '報告', '优惠', '優惠', '折扣',
];

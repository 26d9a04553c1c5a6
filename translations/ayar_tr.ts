<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="tr_TR">
<context>
    <name>ayar::ChartLegendEntry</name>
    <message>
        <source>Click to hide or show this line</source>
        <translation>Bu çizgiyi gizlemek ya da göstermek için tıklayın</translation>
    </message>
</context>
<context>
    <name>ayar::ChartWidget</name>
    <message>
        <source>Reset zoom</source>
        <translation>Yakınlaştırmayı sıfırla</translation>
    </message>
    <message>
        <source>Save as PNG…</source>
        <translation>PNG olarak kaydet…</translation>
    </message>
    <message>
        <source>Save chart</source>
        <translation>Grafiği kaydet</translation>
    </message>
    <message>
        <source>PNG image (*.png)</source>
        <translation>PNG resmi (*.png)</translation>
    </message>
    <message>
        <source>Save as SVG…</source>
        <translation>SVG olarak kaydet…</translation>
    </message>
    <message>
        <source>SVG drawing (*.svg)</source>
        <translation>SVG çizimi (*.svg)</translation>
    </message>
    <message>
        <source>s</source>
        <translation>sn</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
<context>
    <name>ayar::ComparePage</name>
    <message>
        <source>Baseline</source>
        <translation>Temel çalıştırma</translation>
    </message>
    <message>
        <source>Candidates</source>
        <translation>Adaylar</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>Dağılım</translation>
    </message>
    <message>
        <source>End-to-end latency</source>
        <translation>Uçtan uca gecikme</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Karşılaştır</translation>
    </message>
    <message>
        <source>Copy table</source>
        <translation>Tabloyu kopyala</translation>
    </message>
    <message>
        <source>CDF</source>
        <translation>Birikimli dağılım (CDF)</translation>
    </message>
    <message>
        <source>Box plot</source>
        <translation>Kutu grafiği</translation>
    </message>
    <message>
        <source>Choose a baseline and tick at least one candidate.</source>
        <translation>Bir temel çalıştırma seçin ve en az bir adayı işaretleyin.</translation>
    </message>
    <message>
        <source>CDF (%)</source>
        <translation>CDF (%)</translation>
    </message>
    <message>
        <source>Compare runs first, then export the comparison.</source>
        <translation>Önce çalıştırmaları karşılaştırın, sonra karşılaştırmayı dışa aktarın.</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>Raporu dışa aktar</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;HTML (*.html);;Markdown (*.md);;CSV (*.csv);;JSON (*.json)</source>
        <translation>PDF (*.pdf);;HTML (*.html);;Markdown (*.md);;CSV (*.csv);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Raporu dışa aktar…</translation>
    </message>
    <message>
        <source>PDF, HTML (charts embedded), Markdown, CSV or JSON, in the report language below</source>
        <translation>PDF, HTML (grafikler gömülü), Markdown, CSV ya da JSON; aşağıdaki rapor dilinde</translation>
    </message>
    <message>
        <source>Report language</source>
        <translation>Rapor dili</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Rapor %1 dosyasına yazıldı</translation>
    </message>
    <message>
        <source>Logarithmic axis</source>
        <translation>Logaritmik eksen</translation>
    </message>
    <message>
        <source>Powers of ten on the value axis, for runs far apart; chosen when the medians differ tenfold or more</source>
        <translation>Değer ekseninde onun kuvvetleri, birbirinden çok farklı çalıştırmalar için; medyanlar on kat ya da daha fazla ayrıldığında kendiliğinden seçilir</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Every request of the run was sent and answered.</source>
        <translation>Çalıştırmanın her isteği gönderildi ve yanıtlandı.</translation>
    </message>
    <message>
        <source>Stopped: the figures cover the requests that finished before the stop.</source>
        <translation>Durduruldu: ölçümler, durdurulmadan önce biten istekleri kapsar.</translation>
    </message>
    <message>
        <source>Interrupted when Ayar stopped: the figures cover the requests that finished.</source>
        <translation>Ayar kapanırken yarıda kaldı: ölçümler biten istekleri kapsar.</translation>
    </message>
    <message>
        <source>The run failed: its figures may be missing or partial.</source>
        <translation>Çalıştırma başarısız oldu: ölçümleri eksik ya da kısmi olabilir.</translation>
    </message>
    <message>
        <source>Figures</source>
        <translation>Ölçütler</translation>
    </message>
    <message>
        <source>The figures the table and the exported report list</source>
        <translation>Tablonun ve dışa aktarılan raporun listelediği ölçütler</translation>
    </message>
</context>
<context>
    <name>ayar::ComparisonTableModel</name>
    <message>
        <source>Latencies: baseline / candidate. Throughputs: candidate / baseline. Above 1 the candidate is better.</source>
        <translation>Gecikmeler: temel / aday. İşlem hacimleri: aday / temel. 1&apos;in üstünde aday daha iyidir.</translation>
    </message>
    <message>
        <source>Computing the confidence interval from both runs&apos; requests…</source>
        <translation>Güven aralığı iki çalıştırmanın isteklerinden hesaplanıyor…</translation>
    </message>
</context>
<context>
    <name>ayar::DistributionChart</name>
    <message>
        <source>%1 (s)</source>
        <translation>%1 (sn)</translation>
    </message>
    <message>
        <source>%1 (ms)</source>
        <translation>%1 (ms)</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n outside the axis)</source>
        <translation>
            <numerusform>%1 (%n tanesi eksen dışında)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ayar::EngineFlagForm</name>
    <message>
        <source>Memory</source>
        <translation>Bellek</translation>
    </message>
    <message>
        <source>Batching</source>
        <translation>Toplu işleme</translation>
    </message>
    <message>
        <source>Caching</source>
        <translation>Önbellek</translation>
    </message>
    <message>
        <source>Execution</source>
        <translation>Yürütme</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Çıktı</translation>
    </message>
    <message>
        <source>Parallelism</source>
        <translation>Paralellik</translation>
    </message>
    <message>
        <source>Scheduling</source>
        <translation>Zamanlama</translation>
    </message>
    <message>
        <source>Other</source>
        <translation>Diğer</translation>
    </message>
    <message>
        <source>engine default: %1</source>
        <translation>varsayılan: %1</translation>
    </message>
    <message>
        <source>engine default</source>
        <translation>varsayılan</translation>
    </message>
    <message>
        <source>on</source>
        <translation>açık</translation>
    </message>
    <message>
        <source>off</source>
        <translation>kapalı</translation>
    </message>
</context>
<context>
    <name>ayar::HistoryModel</name>
    <message>
        <source>imported (%1)</source>
        <translation>içe aktarıldı (%1)</translation>
    </message>
    <message>
        <source>running</source>
        <translation>sürüyor</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>tamamlandı</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>yarıda kesildi</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>başarısız</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>durduruldu</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Çalıştırma</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Başlangıç</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Etiket</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Motor</translation>
    </message>
    <message>
        <source>Profile</source>
        <translation>Profil</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>İstekler</translation>
    </message>
    <message>
        <source>Mean TTFT (ms)</source>
        <translation>Ortalama TTFT (ms)</translation>
    </message>
    <message>
        <source>Output (tok/s)</source>
        <translation>Çıktı (token/sn)</translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Çalışma</translation>
    </message>
    <message>
        <source>%1, edited</source>
        <translation>%1, düzenlenmiş</translation>
    </message>
    <message>
        <source>SIMULATED</source>
        <translation>SİMÜLASYON</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
</context>
<context>
    <name>ayar::HistoryPage</name>
    <message>
        <source>Search label, model, engine, flag, profile, date…</source>
        <translation>Etiket, model, motor, bayrak, profil, tarih ara…</translation>
    </message>
    <message>
        <source>every status</source>
        <translation>tüm durumlar</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Göster</translation>
    </message>
    <message>
        <source>Compare selected</source>
        <translation>Seçilenleri karşılaştır</translation>
    </message>
    <message>
        <source>The first selected run is the baseline</source>
        <translation>İlk seçilen çalıştırma temel alınır</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Sil</translation>
    </message>
    <message>
        <source>Import results…</source>
        <translation>Sonuçları içe aktar…</translation>
    </message>
    <message>
        <source>vLLM, guidellm, AIPerf and genai-perf result files; you can also drop them on the window</source>
        <translation>vLLM, guidellm, AIPerf ve genai-perf sonuç dosyaları; pencereye sürükleyip bırakabilirsiniz de</translation>
    </message>
    <message>
        <source>Refresh</source>
        <translation>Yenile</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Geri al</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) deleted</source>
        <translation>
            <numerusform>%n çalıştırma silindi</numerusform>
        </translation>
    </message>
    <message>
        <source>Set up again</source>
        <translation>Yeniden kur</translation>
    </message>
    <message>
        <source>Put the selected run&apos;s engine, flags and profile into Setup, to run it again</source>
        <translation>Seçilen çalıştırmanın motorunu, bayraklarını ve profilini yeniden çalıştırmak için Kurulum&apos;a koy</translation>
    </message>
</context>
<context>
    <name>ayar::LivePage</name>
    <message>
        <source>Stop</source>
        <translation>Durdur</translation>
    </message>
    <message>
        <source>Stop the run and keep what was measured</source>
        <translation>Çalıştırmayı durdur, ölçülenleri sakla</translation>
    </message>
    <message>
        <source>Latency per request</source>
        <translation>İstek başına gecikme</translation>
    </message>
    <message>
        <source>time (s)</source>
        <translation>zaman (sn)</translation>
    </message>
    <message>
        <source>output tokens/s</source>
        <translation>çıkış token/sn</translation>
    </message>
    <message>
        <source>requests in flight</source>
        <translation>süren istekler</translation>
    </message>
    <message>
        <source>queue (waiting)</source>
        <translation>kuyruk (bekleyen)</translation>
    </message>
    <message>
        <source>running</source>
        <translation>sürüyor</translation>
    </message>
    <message>
        <source>GPU (NVML)</source>
        <translation>GPU (NVML)</translation>
    </message>
    <message>
        <source>utilisation (%)</source>
        <translation>kullanım (%)</translation>
    </message>
    <message>
        <source>memory (GiB)</source>
        <translation>bellek (GiB)</translation>
    </message>
    <message>
        <source>power (W)</source>
        <translation>güç (W)</translation>
    </message>
    <message>
        <source>ETA: –</source>
        <translation>Kalan süre: –</translation>
    </message>
    <message>
        <source>ETA: %1 s</source>
        <translation>Kalan süre: %1 sn</translation>
    </message>
    <message>
        <source>Sent %1 · in flight %2 · done %3 · failed %4 of %5 · %6 s · %7</source>
        <translation>%5 istekten gönderilen %1 · süren %2 · biten %3 · başarısız %4 · %6 sn · %7</translation>
    </message>
    <message>
        <source>Output throughput</source>
        <translation>Çıkış işlem hacmi</translation>
    </message>
    <message>
        <source>tokens/s</source>
        <translation>token/sn</translation>
    </message>
    <message>
        <source>Load and engine state (/metrics)</source>
        <translation>Yük ve motor durumu (/metrics)</translation>
    </message>
    <message>
        <source>Stopped: what was measured is kept in the store.</source>
        <translation>Durduruldu: ölçülenler sonuç deposunda saklandı.</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>Bitti.</translation>
    </message>
    <message>
        <source>end-to-end latency</source>
        <translation>uçtan uca gecikme</translation>
    </message>
    <message>
        <source>KV cache use</source>
        <translation>KV önbellek kullanımı</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>istek</translation>
    </message>
    <message>
        <source>KV cache (%)</source>
        <translation>KV önbellek (%)</translation>
    </message>
    <message>
        <source>utilisation</source>
        <translation>kullanım</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>bellek</translation>
    </message>
    <message>
        <source>power</source>
        <translation>güç</translation>
    </message>
    <message>
        <source>end-to-end (s)</source>
        <translation>uçtan uca (sn)</translation>
    </message>
    <message>
        <source>end-to-end (ms)</source>
        <translation>uçtan uca (ms)</translation>
    </message>
    <message>
        <source>TTFT (s)</source>
        <translation>TTFT (sn)</translation>
    </message>
    <message>
        <source>TTFT (ms)</source>
        <translation>TTFT (ms)</translation>
    </message>
</context>
<context>
    <name>ayar::MainWindow</name>
    <message>
        <source>Import result files</source>
        <translation>Sonuç dosyalarını içe aktar</translation>
    </message>
    <message>
        <source>Result files (*.json *.jsonl);;All files (*)</source>
        <translation>Sonuç dosyaları (*.json *.jsonl);;Tüm dosyalar (*)</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) were interrupted when Ayar last stopped; their finished requests are kept.</source>
        <translation>
            <numerusform>Ayar son kapandığında %n çalıştırma yarıda kesildi; biten istekleri saklandı.</numerusform>
        </translation>
    </message>
    <message>
        <source>Ayar — LLM serving workbench</source>
        <translation>Ayar — LLM sunum performansı tezgâhı</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Canlı</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Sonuçlar</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>Karşılaştır</translation>
    </message>
    <message>
        <source>History</source>
        <translation>Geçmiş</translation>
    </message>
    <message>
        <source>Studies</source>
        <translation>Çalışmalar</translation>
    </message>
    <message>
        <source>Setup</source>
        <translation>Kurulum</translation>
    </message>
    <message>
        <source>Engine log</source>
        <translation>Motor günlüğü</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Dosya</translation>
    </message>
    <message>
        <source>&amp;Import results…</source>
        <translation>Sonuçları &amp;içe aktar…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Çıkış</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Görünüm</translation>
    </message>
    <message>
        <source>Light theme</source>
        <translation>Açık tema</translation>
    </message>
    <message>
        <source>Dark theme</source>
        <translation>Koyu tema</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>&amp;Dil</translation>
    </message>
    <message>
        <source>Store: %1</source>
        <translation>Sonuç deposu: %1</translation>
    </message>
    <message>
        <source>Cannot start: %1</source>
        <translation>Başlatılamıyor: %1</translation>
    </message>
    <message>
        <source>Run started</source>
        <translation>Çalıştırma başladı</translation>
    </message>
    <message>
        <source>Stopping: requests in flight end, everything finished is kept</source>
        <translation>Durduruluyor: süren istekler sonlanıyor, bitenlerin hepsi saklanıyor</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Çalıştırma başarısız oldu: %1</translation>
    </message>
    <message>
        <source>Run #%1 stopped; what was measured is kept</source>
        <translation>Çalıştırma #%1 durduruldu; ölçülenler saklandı</translation>
    </message>
    <message>
        <source>Run #%1 finished</source>
        <translation>Çalıştırma #%1 bitti</translation>
    </message>
    <message numerus="yes">
        <source>Imported %n run(s)</source>
        <translation>
            <numerusform>%n çalıştırma içe aktarıldı</numerusform>
        </translation>
    </message>
    <message>
        <source>Run #%1 is not in the store</source>
        <translation>Çalıştırma #%1 sonuç deposunda yok</translation>
    </message>
    <message>
        <source>Run #%1 was not made by Ayar: it has no set-up to repeat</source>
        <translation>Çalıştırma #%1 Ayar ile yapılmadı: yinelenecek bir kurulumu yok</translation>
    </message>
    <message>
        <source>Run #%1&apos;s set-up is in Setup: change what you like and start it</source>
        <translation>Çalıştırma #%1&apos;in kurulumu Kurulum&apos;da: istediğinizi değiştirip başlatın</translation>
    </message>
</context>
<context>
    <name>ayar::ProfileEditor</name>
    <message>
        <source>Preset</source>
        <translation>Hazır profil</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Veri kümesi</translation>
    </message>
    <message>
        <source>ShareGPT file</source>
        <translation>ShareGPT dosyası</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>Yük</translation>
    </message>
    <message>
        <source>Request rate (/s)</source>
        <translation>İstek hızı (/sn)</translation>
    </message>
    <message>
        <source>Burstiness</source>
        <translation>Patlamalılık</translation>
    </message>
    <message>
        <source>Max concurrency</source>
        <translation>En fazla eşzamanlılık</translation>
    </message>
    <message>
        <source>Concurrency</source>
        <translation>Eşzamanlılık</translation>
    </message>
    <message>
        <source>Requests</source>
        <translation>İstekler</translation>
    </message>
    <message>
        <source>Input tokens</source>
        <translation>Giriş tokenları</translation>
    </message>
    <message>
        <source>Output tokens</source>
        <translation>Çıkış tokenları</translation>
    </message>
    <message>
        <source>Length range ratio</source>
        <translation>Uzunluk aralığı oranı</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Tohum</translation>
    </message>
    <message>
        <source>custom</source>
        <translation>özel</translation>
    </message>
    <message>
        <source>requests per second</source>
        <translation>saniyede istek</translation>
    </message>
    <message>
        <source>fixed concurrency</source>
        <translation>sabit eşzamanlılık</translation>
    </message>
    <message>
        <source>all at once</source>
        <translation>hepsi birden</translation>
    </message>
    <message>
        <source>a number, or inf for all at once</source>
        <translation>bir sayı ya da hepsi birden için inf</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>sınır yok</translation>
    </message>
    <message>
        <source>Prefix tokens</source>
        <translation>Önek tokenları</translation>
    </message>
    <message>
        <source>Prefixes</source>
        <translation>Önek sayısı</translation>
    </message>
    <message>
        <source>Random tokens (random)</source>
        <translation>Rastgele tokenlar (random)</translation>
    </message>
    <message>
        <source>ShareGPT conversations (sharegpt)</source>
        <translation>ShareGPT konuşmaları (sharegpt)</translation>
    </message>
    <message>
        <source>Synthetic ShareGPT-like (synthetic-sharegpt)</source>
        <translation>ShareGPT benzeri yapay (synthetic-sharegpt)</translation>
    </message>
    <message>
        <source>Shared prefixes (prefix-repetition)</source>
        <translation>Ortak önekler (prefix-repetition)</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>düzenlendi</translation>
    </message>
    <message>
        <source>The fields no longer hold the preset as shipped: the run is stored as edited, with what the fields say.</source>
        <translation>Alanlar artık hazır profilin geldiği hâlini taşımıyor: çalıştırma, alanlarda yazanla birlikte düzenlenmiş olarak saklanır.</translation>
    </message>
    <message>
        <source>1: Poisson, inf: evenly spaced</source>
        <translation>1: Poisson, inf: eşit aralıklı</translation>
    </message>
    <message>
        <source>Only the ShareGPT dataset reads a file.</source>
        <translation>Dosyayı yalnızca ShareGPT veri kümesi okur.</translation>
    </message>
    <message>
        <source>Not used by this dataset: its prompts are its own, with their own lengths.</source>
        <translation>Bu veri kümesi kullanmaz: istemleri de uzunlukları da kendisinindir.</translation>
    </message>
    <message>
        <source>Only the random dataset draws lengths around the given ones.</source>
        <translation>Verilen uzunlukların çevresinde uzunluk çekmeyi yalnızca rastgele veri kümesi yapar.</translation>
    </message>
    <message>
        <source>Only the shared-prefix dataset has prefixes.</source>
        <translation>Önekler yalnızca ortak önekli veri kümesinde vardır.</translation>
    </message>
    <message>
        <source>Used when requests are sent at a rate.</source>
        <translation>İstekler belirli bir hızla gönderildiğinde kullanılır.</translation>
    </message>
    <message>
        <source>Used with a fixed concurrency only.</source>
        <translation>Yalnızca sabit eşzamanlılıkta kullanılır.</translation>
    </message>
    <message>
        <source>A fixed concurrency is its own cap on requests in flight.</source>
        <translation>Sabit eşzamanlılık, süren istekler için zaten bir sınırdır.</translation>
    </message>
    <message>
        <source>Tokens after the prefix</source>
        <translation>Önekten sonraki tokenlar</translation>
    </message>
    <message>
        <source>the dataset&apos;s</source>
        <translation>veri kümesininki</translation>
    </message>
    <message>
        <source>Random prompts of exactly Input tokens (spread by the length range ratio), each asked for exactly Output tokens: ignore_eos is sent.</source>
        <translation>Tam olarak Giriş tokenları uzunluğunda (uzunluk aralığı oranı kadar yayılmış) rastgele istemler; her biri tam olarak Çıkış tokenları kadar yanıt ister: ignore_eos gönderilir.</translation>
    </message>
    <message>
        <source>Prompts and reply lengths come from the ShareGPT file (without one, from a synthetic ShareGPT-like set). Output tokens, when set, makes every reply that long instead.</source>
        <translation>İstemler ve yanıt uzunlukları ShareGPT dosyasından gelir (dosya yoksa ShareGPT benzeri yapay bir kümeden). Çıkış tokenları verilirse her yanıt bunun yerine o uzunlukta olur.</translation>
    </message>
    <message>
        <source>Prompts and reply lengths drawn as ShareGPT&apos;s are. Output tokens, when set, makes every reply that long instead.</source>
        <translation>İstemler ve yanıt uzunlukları ShareGPT&apos;dekiler gibi çekilir. Çıkış tokenları verilirse her yanıt bunun yerine o uzunlukta olur.</translation>
    </message>
    <message>
        <source>Each prompt starts with one of the shared prefixes (Prefix tokens long) and goes on with Tokens after the prefix of its own; each is asked for exactly Output tokens.</source>
        <translation>Her istem ortak öneklerden biriyle (Önek tokenları uzunluğunda) başlar ve kendine ait Önekten sonraki tokenlar ile sürer; her biri tam olarak Çıkış tokenları kadar yanıt ister.</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>empty. Enter requests per second (for example %1), or inf to send them all at once.</source>
        <translation>boş. Saniyedeki istek sayısını girin (örneğin %1) ya da hepsini birden göndermek için inf yazın.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number. Enter requests per second (for example %2), or inf to send them all at once.</source>
        <translation>&quot;%1&quot; bir sayı değil. Saniyedeki istek sayısını girin (örneğin %2) ya da hepsini birden göndermek için inf yazın.</translation>
    </message>
    <message>
        <source>must be above 0 (or inf, to send all at once).</source>
        <translation>0&apos;dan büyük olmalı (ya da hepsini birden göndermek için inf).</translation>
    </message>
    <message>
        <source>must be a number above 0: 1 for Poisson arrivals, inf for evenly spaced ones.</source>
        <translation>0&apos;dan büyük bir sayı olmalı: Poisson gelişleri için 1, eşit aralıklı gelişler için inf.</translation>
    </message>
    <message>
        <source>there is no file %1. Choose a ShareGPT JSON file, or leave the field empty for a synthetic ShareGPT-like set.</source>
        <translation>%1 diye bir dosya yok. Bir ShareGPT JSON dosyası seçin ya da ShareGPT benzeri yapay bir küme için alanı boş bırakın.</translation>
    </message>
    <message>
        <source>none: a synthetic set</source>
        <translation>yok: yapay küme</translation>
    </message>
    <message>
        <source>Ramp-up</source>
        <translation>Hız artışı</translation>
    </message>
    <message>
        <source>Ramp-up from (/s)</source>
        <translation>Artış başlangıcı (/sn)</translation>
    </message>
    <message>
        <source>Ramp-up to (/s)</source>
        <translation>Artış sonu (/sn)</translation>
    </message>
    <message>
        <source>Rates between</source>
        <translation>Aradaki hız sayısı</translation>
    </message>
    <message>
        <source>sweep: one at a time to all at once</source>
        <translation>tarama: teker teker ile hepsi birden arası</translation>
    </message>
    <message>
        <source>Runs the requests one at a time, then all at once, then at rates between the two throughputs: a curve of latency against load.</source>
        <translation>İstekleri önce teker teker, sonra hepsi birden, sonra bu iki işlem hacmi arasındaki hızlarda gönderir: yüke karşı gecikme eğrisi.</translation>
    </message>
    <message>
        <source>none: a steady rate</source>
        <translation>yok: sabit hız</translation>
    </message>
    <message>
        <source>linear</source>
        <translation>doğrusal</translation>
    </message>
    <message>
        <source>exponential</source>
        <translation>üstel</translation>
    </message>
    <message>
        <source>How many rates the sweep runs between one at a time and all at once.</source>
        <translation>Taramanın teker teker ile hepsi birden arasında kaç hız deneyeceği.</translation>
    </message>
    <message>
        <source>A ramp-up sets the rate itself.</source>
        <translation>Hız artışı hızı kendisi belirler.</translation>
    </message>
    <message>
        <source>Used with a ramp-up only.</source>
        <translation>Yalnızca hız artışıyla kullanılır.</translation>
    </message>
    <message>
        <source>Used by a sweep only.</source>
        <translation>Yalnızca taramada kullanılır.</translation>
    </message>
    <message>
        <source>must not be below Ramp-up from (%1).</source>
        <translation>Artış başlangıcından (%1) küçük olmamalı.</translation>
    </message>
</context>
<context>
    <name>ayar::RequestOptionsEditor</name>
    <message>
        <source>Requests</source>
        <translation>İstekler</translation>
    </message>
    <message>
        <source>Sampling (sent in every request)</source>
        <translation>Örnekleme (her istekle gönderilir)</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>Sonuçlar</translation>
    </message>
    <message>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>Yol</translation>
    </message>
    <message>
        <source>Model name sent</source>
        <translation>Gönderilen model adı</translation>
    </message>
    <message>
        <source>Headers</source>
        <translation>Başlıklar</translation>
    </message>
    <message>
        <source>Extra body (JSON)</source>
        <translation>Ek gövde (JSON)</translation>
    </message>
    <message>
        <source>Request timeout (s)</source>
        <translation>İstek zaman aşımı (sn)</translation>
    </message>
    <message>
        <source>Warm-up requests</source>
        <translation>Isınma istekleri</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Sıcaklık (temperature)</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Frequency penalty</source>
        <translation>Sıklık cezası</translation>
    </message>
    <message>
        <source>Presence penalty</source>
        <translation>Varlık cezası</translation>
    </message>
    <message>
        <source>Repetition penalty</source>
        <translation>Tekrar cezası</translation>
    </message>
    <message>
        <source>Percentiles</source>
        <translation>Yüzdelikler</translation>
    </message>
    <message>
        <source>Goodput SLO: TTFT (ms)</source>
        <translation>Goodput SLO&apos;su: TTFT (ms)</translation>
    </message>
    <message>
        <source>Goodput SLO: TPOT (ms)</source>
        <translation>Goodput SLO&apos;su: TPOT (ms)</translation>
    </message>
    <message>
        <source>Goodput SLO: latency (ms)</source>
        <translation>Goodput SLO&apos;su: gecikme (ms)</translation>
    </message>
    <message>
        <source>the engine&apos;s model name</source>
        <translation>motorun model adı</translation>
    </message>
    <message>
        <source>Ask for the whole output length (ignore_eos)</source>
        <translation>Çıkış uzunluğunun tamamını iste (ignore_eos)</translation>
    </message>
    <message>
        <source>The random dataset always sends ignore_eos, as vLLM does: every reply is exactly Output tokens long.</source>
        <translation>Rastgele veri kümesi, vLLM&apos;deki gibi her zaman ignore_eos gönderir: her yanıt tam olarak Çıkış tokenları uzunluğundadır.</translation>
    </message>
    <message>
        <source>The server keeps generating past the end-of-text token until the requested length.</source>
        <translation>Sunucu, istenen uzunluğa kadar metin sonu tokenından sonra da üretmeyi sürdürür.</translation>
    </message>
    <message>
        <source>Name: value, one a line. Used for this session only, never stored.</source>
        <translation>Ad: değer, her satıra bir tane. Yalnızca bu oturumda kullanılır, hiç saklanmaz.</translation>
    </message>
    <message>
        <source>Which percentiles the results list, e.g. %1</source>
        <translation>Sonuçların listelediği yüzdelikler, örneğin %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>yok</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>a path starts with /, like %1.</source>
        <translation>yol / ile başlar, örneğin %1.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a number. %2</source>
        <translation>&quot;%1&quot; bir sayı değil. %2</translation>
    </message>
    <message>
        <source>Give 0 or more, or leave it empty.</source>
        <translation>0 ya da daha büyük bir sayı verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>Give a number above 0 and at most %1, or leave it empty.</source>
        <translation>0&apos;dan büyük ve en fazla %1 olan bir sayı verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a count of tokens. Give a whole number of at least 1 (-1 turns it off), or leave it empty.</source>
        <translation>&quot;%1&quot; bir token sayısı değil. En az 1 olan bir tam sayı verin (-1 kapatır) ya da boş bırakın.</translation>
    </message>
    <message>
        <source>Give a number from 0 to %1, or leave it empty.</source>
        <translation>0 ile %1 arasında bir sayı verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>Give a number from %1 to %2, or leave it empty.</source>
        <translation>%1 ile %2 arasında bir sayı verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>Give a number above 0, or leave it empty.</source>
        <translation>0&apos;dan büyük bir sayı verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>line %1 is not &quot;Name: value&quot; (a header name is letters, digits and dashes).</source>
        <translation>%1. satır &quot;Ad: değer&quot; biçiminde değil (başlık adı harf, rakam ve tirelerden oluşur).</translation>
    </message>
    <message>
        <source>not a JSON object. Write one such as %1, or leave it empty.</source>
        <translation>bir JSON nesnesi değil. %1 gibi bir nesne yazın ya da boş bırakın.</translation>
    </message>
    <message>
        <source>Give a number of seconds above 0, or leave it empty.</source>
        <translation>0&apos;dan büyük bir saniye değeri verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a percentile. List numbers above 0 and at most 100, e.g. %2.</source>
        <translation>&quot;%1&quot; bir yüzdelik değil. 0&apos;dan büyük, en fazla 100 olan sayılar yazın, örneğin %2.</translation>
    </message>
    <message>
        <source>empty. List at least one, e.g. %1.</source>
        <translation>boş. En az bir tane yazın, örneğin %1.</translation>
    </message>
    <message>
        <source>Give milliseconds above 0, or leave it empty.</source>
        <translation>0&apos;dan büyük bir milisaniye değeri verin ya da boş bırakın.</translation>
    </message>
    <message>
        <source>Completions</source>
        <translation>Tamamlama</translation>
    </message>
    <message>
        <source>Chat</source>
        <translation>Sohbet</translation>
    </message>
    <message>
        <source>Completions sends a prompt (vLLM&apos;s openai backend); Chat sends messages through the model&apos;s chat template (openai-chat).</source>
        <translation>Tamamlama bir istem gönderir (vLLM&apos;in openai arka ucu); Sohbet mesajları modelin sohbet şablonuyla gönderir (openai-chat).</translation>
    </message>
    <message>
        <source>A JSON object merged into every request body.</source>
        <translation>Her isteğin gövdesine eklenen bir JSON nesnesi.</translation>
    </message>
    <message>
        <source>0: greedy</source>
        <translation>0: açgözlü</translation>
    </message>
    <message>
        <source>not sent</source>
        <translation>gönderilmez</translation>
    </message>
    <message>
        <source>Empty: not sent, the server&apos;s default applies.</source>
        <translation>Boş: gönderilmez, sunucunun varsayılanı geçerli olur.</translation>
    </message>
    <message>
        <source>Ready check (s)</source>
        <translation>Hazırlık denetimi (sn)</translation>
    </message>
    <message>
        <source>Request id prefix</source>
        <translation>İstek kimliği öneki</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>Tokenizer</translation>
    </message>
    <message>
        <source>Log-probabilities</source>
        <translation>Log-olasılıklar</translation>
    </message>
    <message>
        <source>one try</source>
        <translation>tek deneme</translation>
    </message>
    <message>
        <source>Retry the test request every 5 s for this long before the run; 0 skips it.</source>
        <translation>Çalıştırmadan önce deneme isteğini bu süre boyunca her 5 sn yinele; 0 deneme isteğini atlar.</translation>
    </message>
    <message>
        <source>Each request carries x-request-id: the prefix and its number.</source>
        <translation>Her istek x-request-id taşır: önek ve isteğin numarası.</translation>
    </message>
    <message>
        <source>the model&apos;s, else Qwen3</source>
        <translation>modelinki, yoksa Qwen3</translation>
    </message>
    <message>
        <source>A tokenizer.json, or a folder holding one, to count prompt and output tokens as the served model does.</source>
        <translation>İstem ve çıkış tokenlarını sunulan model gibi saymak için bir tokenizer.json ya da onu içeren bir klasör.</translation>
    </message>
    <message>
        <source>not asked</source>
        <translation>istenmez</translation>
    </message>
    <message>
        <source>Log-probabilities to ask for with each token (completions).</source>
        <translation>Her tokenla istenecek log-olasılık sayısı (tamamlama).</translation>
    </message>
    <message>
        <source>Give a number of seconds (0 skips the test request), or leave it empty for one try.</source>
        <translation>Bir saniye değeri verin (0 deneme isteğini atlar) ya da tek deneme için boş bırakın.</translation>
    </message>
    <message>
        <source>there is no file or folder %1. Give a tokenizer.json or its folder, or leave it empty.</source>
        <translation>%1 diye bir dosya ya da klasör yok. Bir tokenizer.json ya da klasörünü verin veya boş bırakın.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a count. Give a whole number, or leave it empty.</source>
        <translation>&quot;%1&quot; bir sayı değil. Bir tam sayı verin ya da boş bırakın.</translation>
    </message>
</context>
<context>
    <name>ayar::ResultsPage</name>
    <message>
        <source>End-to-end latency</source>
        <translation>Uçtan uca gecikme</translation>
    </message>
    <message>
        <source>requests</source>
        <translation>istek</translation>
    </message>
    <message>
        <source>CDF (%)</source>
        <translation>CDF (%)</translation>
    </message>
    <message>
        <source>No run shown yet: start one from Setup or open one from History.</source>
        <translation>Henüz gösterilen çalıştırma yok: Kurulum&apos;dan başlatın ya da Geçmiş&apos;ten açın.</translation>
    </message>
    <message>
        <source>The run failed before its first request:
%1</source>
        <translation>Çalıştırma ilk isteğinden önce başarısız oldu:
%1</translation>
    </message>
    <message>
        <source>The engine&apos;s log: %1</source>
        <translation>Motorun günlüğü: %1</translation>
    </message>
    <message>
        <source>token intervals</source>
        <translation>token aralıkları</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>Çalıştırma başarısız oldu: %1</translation>
    </message>
    <message>
        <source>How the file was read:</source>
        <translation>Dosya nasıl okundu:</translation>
    </message>
</context>
<context>
    <name>ayar::RunSummaryModel</name>
    <message>
        <source>Value</source>
        <translation>Değer</translation>
    </message>
    <message>
        <source>Unit</source>
        <translation>Birim</translation>
    </message>
</context>
<context>
    <name>ayar::SetupPanel</name>
    <message>
        <source>Model folder (config.json, *.safetensors)</source>
        <translation>Model klasörü (config.json, *.safetensors)</translation>
    </message>
    <message>
        <source>Engine</source>
        <translation>Motor</translation>
    </message>
    <message>
        <source>Engine flags</source>
        <translation>Motor bayrakları</translation>
    </message>
    <message>
        <source>Load profile</source>
        <translation>Yük profili</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>Aygıt</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Model</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>Program</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>API key variable</source>
        <translation>API anahtarı değişkeni</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>API anahtarı</translation>
    </message>
    <message>
        <source>Extra arguments</source>
        <translation>Ek argümanlar</translation>
    </message>
    <message>
        <source>Command line</source>
        <translation>Komut satırı</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>Etiket</translation>
    </message>
    <message>
        <source>Bundled (ayar-engine)</source>
        <translation>Paketli (ayar-engine)</translation>
    </message>
    <message>
        <source>External engine (command template)</source>
        <translation>Harici motor (komut şablonu)</translation>
    </message>
    <message>
        <source>Remote endpoint</source>
        <translation>Uzak uç nokta</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>Klasör…</translation>
    </message>
    <message>
        <source>Hugging Face id or folder</source>
        <translation>Hugging Face kimliği ya da klasör</translation>
    </message>
    <message>
        <source>the template&apos;s program</source>
        <translation>şablonun programı</translation>
    </message>
    <message>
        <source>empty: the first model the server lists</source>
        <translation>boş: sunucunun listelediği ilk model</translation>
    </message>
    <message>
        <source>typed here: used for this session only</source>
        <translation>buraya yazılan yalnızca bu oturumda kullanılır</translation>
    </message>
    <message>
        <source>Remember the typed key on this computer</source>
        <translation>Yazılan anahtarı bu bilgisayarda hatırla</translation>
    </message>
    <message>
        <source>arguments passed as written</source>
        <translation>yazıldığı gibi geçirilen argümanlar</translation>
    </message>
    <message>
        <source>The engine&apos;s command line. Edit it and press Enter: the flags go back into the form. The port is picked when the run starts.</source>
        <translation>Motorun komut satırı. Düzenleyip Enter&apos;a basın: bayraklar forma geri döner. Port, çalıştırma başlarken seçilir.</translation>
    </message>
    <message>
        <source>baseline, prefix caching on, ...</source>
        <translation>temel, önek önbelleği açık, ...</translation>
    </message>
    <message>
        <source>Start run</source>
        <translation>Çalıştırmayı başlat</translation>
    </message>
    <message>
        <source>Keep the start of the command line as it is (%1): change the model, device or engine above, and flags after it.</source>
        <translation>Komut satırının başını olduğu gibi bırakın (%1): modeli, aygıtı ya da motoru yukarıdan, bayrakları ondan sonra değiştirin.</translation>
    </message>
    <message>
        <source>Requests and results</source>
        <translation>İstekler ve sonuçlar</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>empty. Choose a preset such as %1, or a folder with config.json and *.safetensors (Folder…).</source>
        <translation>boş. %1 gibi hazır bir model ya da config.json ve *.safetensors içeren bir klasör seçin (Klasör…).</translation>
    </message>
    <message>
        <source>empty. Give a Hugging Face id or a model folder.</source>
        <translation>boş. Bir Hugging Face kimliği ya da model klasörü verin.</translation>
    </message>
    <message>
        <source>empty. Give the server&apos;s address, such as %1.</source>
        <translation>boş. Sunucunun adresini verin, örneğin %1.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an http:// or https:// address, such as %2.</source>
        <translation>&quot;%1&quot; bir http:// ya da https:// adresi değil; %2 gibi bir adres verin.</translation>
    </message>
    <message>
        <source>A run is going: Stop is in the Live area.</source>
        <translation>Bir çalıştırma sürüyor: Durdur düğmesi Canlı alanında.</translation>
    </message>
</context>
<context>
    <name>ayar::StudiesPage</name>
    <message>
        <source>Run a study file</source>
        <translation>Çalışma dosyası çalıştır</translation>
    </message>
    <message>
        <source>Study files (*.json);;All files (*)</source>
        <translation>Çalışma dosyaları (*.json);;Tüm dosyalar (*)</translation>
    </message>
    <message>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <source>Export the study report</source>
        <translation>Çalışma raporunu dışa aktar</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>Rapor %1 dosyasına yazıldı</translation>
    </message>
    <message>
        <source>Run preset</source>
        <translation>Hazır çalışmayı çalıştır</translation>
    </message>
    <message>
        <source>Run the study preset chosen above (resources/studies)</source>
        <translation>Yukarıda seçilen hazır çalışmayı çalıştırır (resources/studies)</translation>
    </message>
    <message>
        <source>Run a study file…</source>
        <translation>Çalışma dosyası çalıştır…</translation>
    </message>
    <message>
        <source>A study JSON file: a baseline, its variants, the profiles, the deciding figure</source>
        <translation>Bir çalışma JSON dosyası: temel yapılandırma, varyantları, profiller, belirleyici ölçüt</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>Sürdür</translation>
    </message>
    <message>
        <source>Continue the selected stopped or interrupted study; finished cells are kept</source>
        <translation>Seçilen durdurulmuş ya da yarıda kesilmiş çalışmayı sürdürür; biten hücreler saklanır</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>Durdur</translation>
    </message>
    <message>
        <source>Stop the study: the cell in progress is cut, finished cells are kept</source>
        <translation>Çalışmayı durdurur: süren hücre kesilir, biten hücreler saklanır</translation>
    </message>
    <message>
        <source>Serving command</source>
        <translation>Model sunum komutu</translation>
    </message>
    <message>
        <source>Report language</source>
        <translation>Rapor dili</translation>
    </message>
    <message>
        <source>Export report…</source>
        <translation>Raporu dışa aktar…</translation>
    </message>
    <message>
        <source>PDF, HTML, Markdown, CSV or JSON, in the report language beside it</source>
        <translation>PDF, HTML, Markdown, CSV ya da JSON; yanındaki rapor dilinde</translation>
    </message>
    <message>
        <source>A study is running: stop it before starting another.</source>
        <translation>Bir çalışma sürüyor: başka birini başlatmadan önce onu durdurun.</translation>
    </message>
    <message>
        <source>Cannot start the study: %1</source>
        <translation>Çalışma başlatılamıyor: %1</translation>
    </message>
    <message>
        <source>Study #%1 started</source>
        <translation>Çalışma #%1 başladı</translation>
    </message>
    <message>
        <source>A study is running: stop it before resuming another.</source>
        <translation>Bir çalışma sürüyor: başka birini sürdürmeden önce onu durdurun.</translation>
    </message>
    <message>
        <source>Study #%1 is not in the store</source>
        <translation>Çalışma #%1 sonuç deposunda yok</translation>
    </message>
    <message>
        <source>Study #%1 is %2: only a stopped or interrupted study resumes</source>
        <translation>Çalışma #%1 durumu: %2; yalnızca durdurulmuş ya da yarıda kesilmiş bir çalışma sürdürülebilir</translation>
    </message>
    <message>
        <source>Study #%1 resumed: finished cells are kept</source>
        <translation>Çalışma #%1 sürdürülüyor: biten hücreler saklandı</translation>
    </message>
    <message>
        <source>Stopping the study: the cell in progress is cut, finished cells are kept</source>
        <translation>Çalışma durduruluyor: süren hücre kesiliyor, biten hücreler saklanıyor</translation>
    </message>
    <message>
        <source>No study shown: run a preset or a study file, or choose a study in the list.</source>
        <translation>Gösterilen çalışma yok: hazır bir çalışmayı ya da bir çalışma dosyasını çalıştırın veya listeden bir çalışma seçin.</translation>
    </message>
    <message>
        <source>%1 of %2 cells done</source>
        <translation>%2 hücreden %1 tamamlandı</translation>
    </message>
    <message>
        <source>Cell %1 of %2: %3 on %4</source>
        <translation>Hücre %1/%2: %3, %4 profilinde</translation>
    </message>
    <message>
        <source>%1 of %2 requests finished</source>
        <translation>%2 istekten %1 bitti</translation>
    </message>
    <message>
        <source>Starting the next configuration&apos;s engine…</source>
        <translation>Sonraki yapılandırmanın motoru başlatılıyor…</translation>
    </message>
    <message>
        <source>Study #%1 failed: %2</source>
        <translation>Çalışma #%1 başarısız oldu: %2</translation>
    </message>
    <message>
        <source>Study #%1 stopped; finished cells are kept. Resume continues it.</source>
        <translation>Çalışma #%1 durduruldu; biten hücreler saklandı. Sürdür ile devam eder.</translation>
    </message>
    <message>
        <source>Study #%1 finished</source>
        <translation>Çalışma #%1 bitti</translation>
    </message>
    <message>
        <source>The report appears here when the study has finished.</source>
        <translation>Rapor, çalışma bitince burada görünür.</translation>
    </message>
    <message>
        <source>The report appears here once a study has finished cells.</source>
        <translation>Rapor, bir çalışmanın biten hücreleri olunca burada görünür.</translation>
    </message>
    <message>
        <source>No recommendation yet: the study has option cells left to run.</source>
        <translation>Henüz öneri yok: çalışmanın çalıştırılacak seçenek hücreleri var.</translation>
    </message>
    <message>
        <source>Recommended: %1 (no option beat the baseline)</source>
        <translation>Önerilen: %1 (hiçbir seçenek temel yapılandırmayı geçemedi)</translation>
    </message>
    <message>
        <source>Recommended: %1, %2 (%3)</source>
        <translation>Önerilen: %1, %2 (%3)</translation>
    </message>
    <message>
        <source>Choose a study first, then export its report.</source>
        <translation>Önce bir çalışma seçin, sonra raporunu dışa aktarın.</translation>
    </message>
    <message>
        <source>The smoke preset shows a whole study in about a minute on any machine: two configurations of the bundled engine&apos;s timing simulator, each on a small profile, then the faster one beside the baseline on a second profile.</source>
        <translation>Hazır smoke çalışması, bir çalışmanın tamamını her makinede yaklaşık bir dakikada gösterir: paketli motorun zamanlama simülatörünün iki yapılandırması, her biri küçük bir profilde; ardından daha hızlı olan, temel yapılandırmanın yanında ikinci bir profilde.</translation>
    </message>
</context>
<context>
    <name>ayar::StudyGridModel</name>
    <message>
        <source>pending</source>
        <translation>bekliyor</translation>
    </message>
    <message>
        <source>running</source>
        <translation>sürüyor</translation>
    </message>
    <message>
        <source>done</source>
        <translation>tamamlandı</translation>
    </message>
    <message>
        <source>engine did not start</source>
        <translation>motor başlamadı</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>başarısız</translation>
    </message>
    <message>
        <source>Not part of the study: only the baseline and the recommended configuration run the follow-up profiles</source>
        <translation>Çalışmanın parçası değil: ek senaryoları yalnızca temel ve önerilen yapılandırma çalıştırır</translation>
    </message>
    <message>
        <source>running… %1%</source>
        <translation>sürüyor… %%1</translation>
    </message>
    <message>
        <source>%1 than the baseline</source>
        <translation>temel yapılandırmaya göre %1</translation>
    </message>
    <message>
        <source>Run #%1: double-click to open it in Results</source>
        <translation>Çalıştırma #%1: Sonuçlar&apos;da açmak için çift tıklayın</translation>
    </message>
    <message>
        <source>%1 (follow-up)</source>
        <translation>%1 (ek senaryo)</translation>
    </message>
    <message>
        <source>Profile %1, run by the baseline and the recommended configuration once the options are measured</source>
        <translation>%1 profili: seçenekler ölçüldükten sonra temel ve önerilen yapılandırma çalıştırır</translation>
    </message>
    <message>
        <source>Profile %1, run by every configuration</source>
        <translation>%1 profili: her yapılandırma çalıştırır</translation>
    </message>
    <message>
        <source>The baseline: every option is measured against it</source>
        <translation>Temel yapılandırma: her seçenek ona göre ölçülür</translation>
    </message>
    <message>
        <source>The recommended configuration</source>
        <translation>Önerilen yapılandırma</translation>
    </message>
</context>
<context>
    <name>ayar::StudyListModel</name>
    <message>
        <source>Resume continues it; finished cells are kept</source>
        <translation>Sürdür ile devam eder; biten hücreler saklanır</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n başarısız</numerusform>
        </translation>
    </message>
    <message>
        <source>Study</source>
        <translation>Çalışma</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Ad</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Durum</translation>
    </message>
    <message>
        <source>Cells done</source>
        <translation>Biten hücreler</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Başlangıç</translation>
    </message>
</context>
</TS>

#include "core/report/report_text.h"

#include <cassert>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/report/message_text.h"

namespace ayar {

namespace {

struct Phrase {
  ReportText id;
  std::string_view english;
  std::string_view turkish;
};

constexpr Phrase kPhrases[] = {
    {ReportText::TimesFaster, "{0}x faster", "{0}x daha hızlı"},
    {ReportText::TimesSlower, "{0}x slower", "{0}x daha yavaş"},
    {ReportText::TimesHigher, "{0}x higher", "{0}x daha yüksek"},
    {ReportText::TimesLower, "{0}x lower", "{0}x daha düşük"},
    {ReportText::RatioWithInterval, "{0} ({1}% CI {2}-{3})", "{0} (%{1} güven aralığı {2}-{3})"},
    {ReportText::NoClearDifference, "{0}: no clear difference", "{0}: belirgin bir fark yok"},
    {ReportText::RatioWithinNoise, "≈ {0}", "≈ {0}"},
    {ReportText::NoiseLegend, "≈ no clear difference: the ratio's {0}% interval holds 1",
     "≈ belirgin bir fark yok: oranın %{0} güven aralığı 1'i içeriyor"},
    {ReportText::FigureMeanLatency, "Mean latency", "Ortalama gecikme"},
    {ReportText::FigureMedianLatency, "Median latency", "Medyan gecikme"},
    {ReportText::FigureP99Latency, "P99 latency", "P99 gecikme"},
    {ReportText::FigureMeanTtft, "Mean TTFT", "Ortalama TTFT"},
    {ReportText::FigureMedianTtft, "Median TTFT", "Medyan TTFT"},
    {ReportText::FigureP99Ttft, "P99 TTFT", "P99 TTFT"},
    {ReportText::FigureMeanTpot, "Mean TPOT", "Ortalama TPOT"},
    {ReportText::FigureMedianTpot, "Median TPOT", "Medyan TPOT"},
    {ReportText::FigureP99Tpot, "P99 TPOT", "P99 TPOT"},
    {ReportText::FigureMeanItl, "Mean ITL", "Ortalama ITL"},
    {ReportText::FigureMedianItl, "Median ITL", "Medyan ITL"},
    {ReportText::FigureP99Itl, "P99 ITL", "P99 ITL"},
    {ReportText::FigureRequestThroughput, "Request throughput", "İstek işlem hacmi"},
    {ReportText::FigureRequestGoodput, "Request goodput", "SLO'yu karşılayan istek hacmi (goodput)"},
    {ReportText::FigureOutputThroughput, "Output token throughput", "Çıkış token işlem hacmi"},
    {ReportText::FigureTotalTokenThroughput, "Total token throughput", "Toplam token işlem hacmi"},
    {ReportText::FigurePeakOutputThroughput, "Peak output token throughput",
     "En yüksek çıkış token işlem hacmi"},
    {ReportText::ColumnScenario, "Benchmark scenario", "Benchmark senaryosu"},
    {ReportText::ColumnBaseline, "Baseline", "Temel yapılandırma"},
    {ReportText::ColumnCandidate, "Candidate", "Aday"},
    {ReportText::ColumnOptimised, "Optimised", "Optimize edilmiş"},
    {ReportText::ColumnRatio, "Ratio", "Oran"},
    {ReportText::ColumnInterval, "{0}% CI", "%{0} güven aralığı"},
    {ReportText::ColumnComparison, "Comparison", "Karşılaştırma"},
    {ReportText::ColumnOption, "Option", "Seçenek"},
    {ReportText::ColumnRun, "Run", "Çalıştırma"},
    {ReportText::ColumnFigure, "Figure", "Ölçüt"},
    {ReportText::UnitMilliseconds, "ms", "ms"},
    {ReportText::UnitSeconds, "s", "sn"},
    {ReportText::UnitPerSecondRequests, "req/s", "istek/sn"},
    {ReportText::UnitPerSecondTokens, "tok/s", "token/sn"},
    {ReportText::NoteSimulated,
     "Simulated: the timings come from ayar-engine's timing simulator, not from a GPU.",
     "Simülasyon: süreler bir GPU'dan değil, ayar-engine'in zamanlama simülatöründen gelir."},
    {ReportText::NoteNoValue, "n/a", "yok"},
    {ReportText::ColumnSection, "Section", "Bölüm"},
    {ReportText::ColumnGroup, "Group", "Grup"},
    {ReportText::ColumnConfiguration, "Configuration", "Yapılandırma"},
    {ReportText::ColumnProfile, "Profile", "Profil"},
    {ReportText::ColumnStatus, "Status", "Durum"},
    {ReportText::StudyConclusion, "Conclusion", "Sonuç"},
    {ReportText::StudyRecommendedFor,
     "Recommended configuration for {0}:", "{0} için önerilen yapılandırma:"},
    {ReportText::StudyServingCommand, "Serving command", "Model sunum komutu"},
    {ReportText::StudyBeforeAfter, "Benchmark results before and after optimisation:",
     "Optimizasyon öncesi ve sonrası benchmark sonuçlarının karşılaştırması:"},
    {ReportText::StudyBaselineColumn, "Baseline ({0})", "Temel yapılandırma ({0})"},
    {ReportText::StudyBaselineStays,
     "No option beat the baseline on {0}; the baseline stays the recommended configuration.",
     "Hiçbir seçenek {0} açısından temel yapılandırmayı geçemedi; önerilen yapılandırma yine temel "
     "yapılandırmadır."},
    {ReportText::StudyIncomplete,
     "The study is not finished: {0} of the {1} cells planned so far are measured, so what follows stands "
     "on those cells only. Resume it to measure the rest.",
     "Çalışma tamamlanmadı: şimdiye dek planlanan {1} hücreden {0} tanesi ölçüldü; aşağıdakiler yalnızca "
     "bu hücrelere dayanır. Kalanları ölçmek için çalışmayı sürdürün."},
    // {0} and {2} are titles a study file gives (capitalised): {0} opens the sentence, {2} is quoted.
    {ReportText::StudyRecommendedWhy, "{0} is the best configuration for {1} in the profile “{2}”: {3}.",
     "{0}, “{2}” profilinde {1} açısından en iyi yapılandırmadır: {3}."},
    {ReportText::StudyNotes, "Notes", "Not"},
    {ReportText::StudyNoteLocalOptimum,
     "The study does not cover every combination of options: each option is tried on its own against the "
     "baseline, which finds a local optimum that may not be the global one.",
     "Bu çalışma olası tüm optimizasyon birleşimlerini kapsamaz: her seçenek temel yapılandırmaya karşı tek "
     "başına denenir; bu eleme yaklaşımı yerel bir optimum verir, bu genel optimum olmayabilir."},
    {ReportText::StudyNoteStartingPoint,
     "Other options depend on the use case; these results are a starting point for more targeted tuning.",
     "Belirli kullanım senaryolarına bağlı başka optimizasyonlar da vardır; bu sonuçlar daha hedefli "
     "optimizasyonlar için başlangıç noktası olabilir."},
    {ReportText::StudyNoteHardware,
     "The tests ran on specific hardware and software; newer engines may change the results.",
     "Testler belirli donanım ve yazılım yapılandırmalarında yürütülmüştür; çıkarım motorlarındaki "
     "gelişmeler sonuçları değiştirebilir."},
    {ReportText::StudyGoal, "Optimisation goal", "Optimizasyon hedefi"},
    {ReportText::StudySetup, "Experiment setup", "Deney kurulumu"},
    {ReportText::StudyModel, "Model", "Model"},
    {ReportText::StudyHardware, "Hardware", "Donanım"},
    {ReportText::StudyHardwareNotRecorded, "not recorded", "kaydedilmedi"},
    {ReportText::StudyEngineVersions, "Engine version", "Motor sürümü"},
    {ReportText::StudyDataset, "Benchmark dataset", "Benchmark veri kümesi"},
    {ReportText::StudyMethod, "Method", "Yöntem"},
    {ReportText::StudyMethodDeciding, "Deciding figure: {0}.", "Belirleyici ölçüt: {0}."},
    {ReportText::StudyMethodSlo, "SLOs (goodput): {0}.", "SLO'lar (goodput): {0}."},
    {ReportText::StudyMethodWarmup, "{0} warm-up requests before each cell, not counted in its figures.",
     "Her hücreden önce {0} ısınma isteği gönderildi; ölçümlere katılmadı."},
    {ReportText::StudyMethodOrder,
     "Each configuration's engine is started once, checked for health, runs its profiles in order and is "
     "stopped before the next one.",
     "Her yapılandırmanın motoru bir kez başlatılır, sağlığı denetlenir, profillerini sırayla çalıştırır ve "
     "sonrakinden önce durdurulur."},
    {ReportText::StudyMeasured, "Measured on a real engine.", "Gerçek bir motorda ölçüldü."},
    {ReportText::StudyResults, "Experiment results", "Deney sonuçları"},
    {ReportText::StudyProfileLine, "Profile: {0}", "Profil: {0}"},
    {ReportText::StudyFlagsLine, "Engine flags: {0}", "Motor parametreleri: {0}"},
    {ReportText::StudyNoFlags, "(none)", "(yok)"},
    {ReportText::StudyResultBlock, "Benchmark result", "Benchmark sonucu"},
    {ReportText::StudyFailedToStart,
     "The engine did not start; the last lines of its log:", "Motor başlamadı; günlüğünün son satırları:"},
    {ReportText::StudyCellFailed, "The run failed: {0}", "Çalıştırma başarısız oldu: {0}"},
    {ReportText::StudyNotRun, "not run", "çalıştırılmadı"},
    {ReportText::StudyOptionsSummary, "Summary of optimisation options", "Optimizasyon seçeneklerinin özeti"},
    {ReportText::StudyOtherScenarios, "Other benchmark scenarios", "Diğer benchmark senaryoları"},
    {ReportText::StudyOtherScenariosIntro,
     "To see how the recommended configuration generalises, it ran these profiles beside the baseline.",
     "Önerilen yapılandırmanın farklı iş yüklerine genellenebilirliğini görmek için bu profiller temel "
     "yapılandırmanın yanında çalıştırıldı."},
    {ReportText::StudyBaselineCommand, "Baseline serving command", "Temel model sunum komutu"},
    {ReportText::StudyOptimisedCommand, "Optimised serving command", "Optimize edilmiş model sunum komutu"},
    {ReportText::StudyBaselineResult, "Baseline benchmark result", "Temel benchmark sonucu"},
    {ReportText::StudyOptimisedResult, "Optimised benchmark result", "Optimize edilmiş benchmark sonucu"},
    {ReportText::StudyCellsDone, "{0} of {1} cells done", "{1} hücreden {0} tanesi tamamlandı"},
    {ReportText::ColumnValue, "Value", "Değer"},
    {ReportText::ColumnStep, "Step", "Adım"},
    {ReportText::ColumnSloAttainment, "SLOs met", "SLO karşılanma"},
    {ReportText::ColumnSuccessRate, "Success rate", "Başarı oranı"},
    {ReportText::ColumnWithinLimits, "Within limits", "Sınırlar içinde"},
    {ReportText::ColumnRate, "Request rate (req/s)", "İstek hızı (istek/sn)"},
    {ReportText::ColumnGoodput, "Goodput (req/s)", "Goodput (istek/sn)"},
    {ReportText::WordYes, "yes", "evet"},
    {ReportText::WordNo, "no", "hayır"},
    {ReportText::SearchProbes, "Probes", "Denemeler"},
    {ReportText::SearchStepTernary, "ternary search", "üçlü arama"},
    {ReportText::SearchStepLast, "last values", "son değerler"},
    {ReportText::SearchStepGrow, "doubling", "ikiye katlama"},
    {ReportText::SearchStepShrink, "halving", "yarıya indirme"},
    {ReportText::SearchStepInterpolate, "interpolation", "ara değerleme"},
    {ReportText::SearchNotStarted, "the engine did not start: {0}", "motor başlamadı: {0}"},
    {ReportText::SearchLimits,
     "Limits: at least {0} of the successful requests meet the SLOs ({1}) and at least {2} of the requests "
     "succeed.",
     "Sınırlar: başarılı isteklerin SLO'ları ({1}) karşılama oranı en az {0}, isteklerin başarı oranı en "
     "az {2}."},
    {ReportText::SearchNoSlo, "none", "yok"},
    {ReportText::TuneTitle, "Tuning {0}", "{0} ayarı"},
    {ReportText::TuneBest, "Best value of {0}: {1} ({2}).", "{0} için en iyi değer: {1} ({2})."},
    {ReportText::TuneNoneWithinLimits, "No value held the limits.", "Hiçbir değer sınırları karşılamadı."},
    {ReportText::CapacityTitle, "Capacity of {0}", "{0} kapasitesi"},
    {ReportText::CapacityFound,
     "Largest request rate within the limits: {0} req/s; the first rate beyond them: {1}.",
     "Sınırlar içinde kalan en yüksek istek hızı: {0} istek/sn; onları aşan ilk hız: {1}."},
    {ReportText::CapacityNone, "No request rate probed held the limits.",
     "Denenen hiçbir istek hızı sınırları karşılamadı."},
    {ReportText::CapacityChart, "Goodput against request rate", "İstek hızına göre goodput"},
    {ReportText::ComparisonTitle, "Run comparison", "Çalıştırma karşılaştırması"},
    {ReportText::ComparisonRuns, "Runs", "Çalıştırmalar"},
    {ReportText::ComparisonRatioNote,
     "Ratios: baseline / candidate for latencies, candidate / baseline for throughputs; above 1 the "
     "candidate is better.",
     "Oranlar: gecikmelerde temel / aday, işlem hacimlerinde aday / temel; 1'in üstünde aday daha iyidir."},
    {ReportText::ComparisonIntervalNote,
     "Intervals: the {0}% confidence interval of each latency ratio, a percentile bootstrap over each "
     "run's requests ({1} resamples, a fixed seed; ITL over its token gaps). Where the interval holds 1, "
     "the difference is within the runs' own spread: no clear difference. A throughput is one figure of a "
     "whole run and has no interval.",
     "Aralıklar: her gecikme oranının %{0} güven aralığı, her çalıştırmanın istekleri üzerinden yüzdelik "
     "bootstrap ({1} yeniden örnekleme, sabit tohum; ITL için token aralıkları üzerinden). Aralık 1'i "
     "içeriyorsa fark, çalıştırmaların kendi dağılımının içindedir: belirgin bir fark yok. İşlem hacmi "
     "bütün bir çalıştırmanın tek değeridir; aralığı yoktur."},
    {ReportText::ComparisonTableCaption, "{0} against {1}", "{0} ile {1} karşılaştırması"},
    {ReportText::ComparisonResultOf, "Result of {0}", "{0} sonucu"},
    {ReportText::ComparisonCharts, "Distributions", "Dağılımlar"},
    {ReportText::ComparisonCdfCaption, "Cumulative distribution of {0}", "Birikimli dağılım: {0}"},
    {ReportText::ComparisonBoxCaption, "Box plot of {0}", "Kutu grafiği: {0}"},
    {ReportText::ComparisonDifferences, "What differs", "Neler farklı"},
    {ReportText::ComparisonDifferencesNote,
     "Every setting in which a candidate differs from the baseline: engine, model, device, engine flags "
     "and load profile. A flag a run left unset reads as the engine's default.",
     "Bir adayın temel yapılandırmadan ayrıldığı her ayar: motor, model, aygıt, motor bayrakları ve yük "
     "profili. Bir çalıştırmanın vermediği bayrak, motorun varsayılanı olarak okunur."},
    {ReportText::ComparisonSameSetup,
     "The candidates ran with the baseline's engine, model, device, engine flags and load profile.",
     "Adaylar, temel yapılandırmanın motoru, modeli, aygıtı, motor bayrakları ve yük profiliyle çalıştı."},
    {ReportText::ColumnSetting, "Setting", "Ayar"},
    {ReportText::SettingEngine, "Engine", "Motor"},
    {ReportText::SettingModel, "Model", "Model"},
    {ReportText::SettingDevice, "Device", "Aygıt"},
    {ReportText::SettingDefault, "default ({0})", "varsayılan ({0})"},
    {ReportText::SettingEngineDecides, "engine default", "motor varsayılanı"},
    {ReportText::SettingNotRecorded, "not recorded", "kaydedilmemiş"},
    {ReportText::SettingSwitchOn, "on", "açık"},
    {ReportText::ChartLatencyTtft, "TTFT", "TTFT"},
    {ReportText::ChartLatencyTpot, "TPOT", "TPOT"},
    {ReportText::ChartLatencyItl, "ITL", "ITL"},
    {ReportText::ChartLatencyE2el, "End-to-end latency", "Uçtan uca gecikme"},
    {ReportText::ChartCumulativeShare, "Share of requests (%)", "İsteklerin birikimli payı (%)"},
    {ReportText::PageOf, "Page {0} of {1}", "Sayfa {0} / {1}"},
    {ReportText::ProfileShareGpt, "ShareGPT", "ShareGPT"},
    {ReportText::ProfileRandom, "random prompts", "rastgele istemler"},
    {ReportText::ProfileSynthetic, "synthetic ShareGPT-like prompts", "sentetik, ShareGPT benzeri istemler"},
    {ReportText::ProfilePrefixRepetition, "prompts sharing prefixes", "ortak önekli istemler"},
    {ReportText::ProfileRequests, "{0} requests", "{0} istek"},
    {ReportText::ProfileLengths, "{0} input and {1} output tokens", "{0} giriş ve {1} çıkış token'ı"},
    {ReportText::ProfilePrefixes, "{0} prefixes of {1} tokens, {2} more input and {3} output tokens",
     "{1} token'lık {0} önek, {2} ek giriş ve {3} çıkış token'ı"},
    {ReportText::ProfileRate, "{0} requests per second", "saniyede {0} istek"},
    {ReportText::ProfilePoisson, "Poisson arrivals", "Poisson dağılımlı varışlar"},
    {ReportText::ProfileEvenly, "evenly spaced", "eşit aralıklı"},
    {ReportText::ProfileBurstiness, "burstiness {0}", "patlama katsayısı (burstiness) {0}"},
    {ReportText::ProfileAllAtOnce, "all at once", "hepsi aynı anda"},
    {ReportText::ProfileRampLinear, "a linear ramp from {0} to {1} requests per second",
     "saniyede {0} istekten {1} isteğe doğrusal artış"},
    {ReportText::ProfileRampExponential, "an exponential ramp from {0} to {1} requests per second",
     "saniyede {0} istekten {1} isteğe üstel artış"},
    {ReportText::ProfileConcurrent, "{0} concurrent streams", "{0} eş zamanlı akış"},
    {ReportText::ProfileThroughput, "all at once, as fast as the engine takes them",
     "hepsi aynı anda, motorun alabildiği hızda"},
    {ReportText::ProfileSweep, "a sweep of {0} rates", "{0} hızlık tarama"},
    {ReportText::ProfileMaxConcurrency, "at most {0} in flight", "aynı anda en fazla {0} istek"},
};
static_assert(std::size(kPhrases) == static_cast<std::size_t>(ReportText::Count_),
              "every ReportText needs its row in kPhrases");

constexpr bool phrasesInEnumOrder() {
  for (std::size_t i = 0; i < std::size(kPhrases); ++i)
    if (static_cast<std::size_t>(kPhrases[i].id) != i) return false;
  return true;
}
static_assert(phrasesInEnumOrder(), "kPhrases must list the ReportText ids in declaration order");

constexpr ReportText kFigureLabels[] = {
    ReportText::FigureMeanLatency,
    ReportText::FigureMedianLatency,
    ReportText::FigureP99Latency,
    ReportText::FigureMeanTtft,
    ReportText::FigureMedianTtft,
    ReportText::FigureP99Ttft,
    ReportText::FigureMeanTpot,
    ReportText::FigureMedianTpot,
    ReportText::FigureP99Tpot,
    ReportText::FigureMeanItl,
    ReportText::FigureMedianItl,
    ReportText::FigureP99Itl,
    ReportText::FigureRequestThroughput,
    ReportText::FigureRequestGoodput,
    ReportText::FigureOutputThroughput,
    ReportText::FigureTotalTokenThroughput,
    ReportText::FigurePeakOutputThroughput,
};
static_assert(std::size(kFigureLabels) == std::size(kAllRunFigures), "every RunFigure needs a label");

// The figures inside a sentence, in the order of kAllRunFigures.
constexpr struct {
  std::string_view english;
  std::string_view turkish;
} kFiguresInText[] = {
    {"mean latency", "ortalama gecikme"},
    {"median latency", "medyan gecikme"},
    {"P99 latency", "P99 gecikme"},
    {"mean TTFT", "ortalama TTFT"},
    {"median TTFT", "medyan TTFT"},
    {"P99 TTFT", "P99 TTFT"},
    {"mean TPOT", "ortalama TPOT"},
    {"median TPOT", "medyan TPOT"},
    {"P99 TPOT", "P99 TPOT"},
    {"mean ITL", "ortalama ITL"},
    {"median ITL", "medyan ITL"},
    {"P99 ITL", "P99 ITL"},
    {"request throughput", "istek işlem hacmi"},
    {"request goodput", "SLO'yu karşılayan istek hacmi (goodput)"},
    {"output token throughput", "çıkış token işlem hacmi"},
    {"total token throughput", "toplam token işlem hacmi"},
    {"peak output token throughput", "en yüksek çıkış token işlem hacmi"},
};
static_assert(std::size(kFiguresInText) == std::size(kAllRunFigures),
              "every RunFigure needs its in-text name");

constexpr ReportText kLatencyLabels[] = {ReportText::ChartLatencyTtft, ReportText::ChartLatencyTpot,
                                         ReportText::ChartLatencyItl, ReportText::ChartLatencyE2el};
static_assert(std::size(kLatencyLabels) == std::size(kAllLatencyMetrics),
              "every LatencyMetric needs a label");

char asciiLower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsAsciiNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (asciiLower(a[i]) != asciiLower(b[i])) return false;
  return true;
}

}  // namespace

std::string_view reportLanguageCode(ReportLanguage language) {
  return language == ReportLanguage::Turkish ? "tr" : "en";
}

ReportLanguage parseReportLanguage(std::string_view code) {
  for (std::string_view en : {"en", "english"})
    if (equalsAsciiNoCase(code, en)) return ReportLanguage::English;
  // "türkçe" is matched byte for byte apart from ASCII case: ü and ç have no ASCII case.
  for (std::string_view tr : {"tr", "turkish", "türkçe"})
    if (equalsAsciiNoCase(code, tr)) return ReportLanguage::Turkish;
  throw MessageError({MessageText::ReportLanguageUnknown, {std::string(code)}});
}

std::string_view reportText(ReportText id, ReportLanguage language) {
  const auto index = static_cast<std::size_t>(id);
  assert(index < std::size(kPhrases));
  const Phrase& phrase = kPhrases[index];
  return language == ReportLanguage::Turkish ? phrase.turkish : phrase.english;
}

std::string formatReportText(ReportText id, ReportLanguage language,
                             std::initializer_list<std::string_view> args) {
  const std::string_view pattern = reportText(id, language);
  const std::vector<std::string_view> values(args);
  std::string out;
  out.reserve(pattern.size() + 16);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '{') {
      const std::size_t close = pattern.find('}', i);
      assert(close != std::string_view::npos);
      std::size_t index = 0;
      for (std::size_t k = i + 1; k < close; ++k)
        index = index * 10 + static_cast<std::size_t>(pattern[k] - '0');
      assert(index < values.size());
      if (index < values.size()) out += values[index];
      i = close;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::string_view runFigureLabel(RunFigure figure, ReportLanguage language) {
  return reportText(kFigureLabels[static_cast<std::size_t>(figure)], language);
}

std::string_view runFigureInText(RunFigure figure, ReportLanguage language) {
  const auto& name = kFiguresInText[static_cast<std::size_t>(figure)];
  return language == ReportLanguage::Turkish ? name.turkish : name.english;
}

std::string_view latencyMetricLabel(LatencyMetric metric, ReportLanguage language) {
  return reportText(kLatencyLabels[static_cast<std::size_t>(metric)], language);
}

std::string_view runFigureUnit(RunFigure figure, ReportLanguage language) {
  if (runFigureIsLatency(figure)) return reportText(ReportText::UnitMilliseconds, language);
  if (figure == RunFigure::RequestThroughput || figure == RunFigure::RequestGoodput)
    return reportText(ReportText::UnitPerSecondRequests, language);
  return reportText(ReportText::UnitPerSecondTokens, language);
}

std::string formatSpeedup(double speedup, const ReportLocale& locale, bool higherLower) {
  const bool better = speedup >= 1.0;
  const double factor = better ? speedup : 1.0 / speedup;
  const ReportText id = higherLower ? (better ? ReportText::TimesHigher : ReportText::TimesLower)
                                    : (better ? ReportText::TimesFaster : ReportText::TimesSlower);
  return formatReportText(id, locale.language(), {locale.number(factor, 2)});
}

namespace {

// The interval's ends in the sense the ratio is worded: as "slower" the ratio is inverted, and so is
// the interval (its ends swap).
std::pair<double, double> wordedEnds(const SpeedupInterval& interval) {
  if (interval.speedup >= 1.0) return {interval.low, interval.high};
  return {1.0 / interval.high, 1.0 / interval.low};
}

}  // namespace

std::string formatIntervalRange(const SpeedupInterval& interval, const ReportLocale& locale) {
  const auto [low, high] = wordedEnds(interval);
  return locale.number(low, 2) + "-" + locale.number(high, 2);
}

std::string formatIntervalColumn(const BootstrapOptions& options, const ReportLocale& locale) {
  return formatReportText(ReportText::ColumnInterval, locale.language(),
                          {locale.number(options.level * 100.0, 0)});
}

std::string formatIntervalNote(const BootstrapOptions& options, const ReportLocale& locale) {
  return formatReportText(ReportText::ComparisonIntervalNote, locale.language(),
                          {locale.number(options.level * 100.0, 0), locale.number(options.resamples, 0)});
}

std::string formatSpeedupInterval(const SpeedupInterval& interval, const ReportLocale& locale,
                                  bool higherLower) {
  const auto [low, high] = wordedEnds(interval);
  const std::string text = formatReportText(
      ReportText::RatioWithInterval, locale.language(),
      {formatSpeedup(interval.speedup, locale, higherLower), locale.number(interval.level * 100.0, 0),
       locale.number(low, 2), locale.number(high, 2)});
  return interval.clear() ? text : formatReportText(ReportText::NoClearDifference, locale.language(), {text});
}

std::string formatRelativeChange(double change, const ReportLocale& locale) {
  return locale.signedPercent(change * 100.0, 1);
}

}  // namespace ayar

#include "core/report/message_text.h"

#include <cassert>
#include <cctype>
#include <charconv>

#include "core/report/report_locale.h"

namespace ayar {

namespace {

struct Phrase {
  MessageText id;
  std::string_view english;
  std::string_view turkish;
};

constexpr Phrase kPhrases[] = {
    {MessageText::FlagNeedsDash, "Flag \"{0}\" must start with a dash (write \"--{0}\").",
     "\"{0}\" bayrağı tireyle başlamalı (\"--{0}\" yazın)."},
    {MessageText::FlagSetByAyar,
     "{0} is set by Ayar from the engine settings (model, host, port, served model name, device, API key); "
     "remove it from the flags.",
     "{0}: bunu Ayar motor ayarlarından (model, sunucu, port, sunulan model adı, aygıt, API anahtarı) "
     "kendisi verir; bayraklardan çıkarın."},
    {MessageText::FlagGivenTwice, "{0} is given twice; keep one.", "{0} iki kez verilmiş; birini bırakın."},
    {MessageText::FlagUnknown, "{0} is not a flag of {1}. Its flags are: {2}.",
     "{0}, {1} motorunun bayraklarından biri değil. Bayrakları şunlar: {2}."},
    {MessageText::FlagNotInCatalogue,
     "{0} is not in Ayar's catalogue of {1} flags; it is passed as written, unchecked.",
     "{0}, Ayar'ın {1} bayrak kataloğunda yok; denetlenmeden, yazıldığı gibi geçirilir."},
    {MessageText::FlagNegationNoValue, "{0} takes no value; it turns {1} off.",
     "{0} değer almaz; {1} seçeneğini kapatır."},
    {MessageText::FlagNeedsValue, "{0} needs a value ({1}).", "{0} bir değer ister ({1})."},
    {MessageText::FlagRangeBetween, "{0} is {1}; it must be between {2} and {3}.",
     "{0} için {1} verilmiş; {2} ile {3} arasında olmalı."},
    {MessageText::FlagRangeAtLeast, "{0} is {1}; it must be at least {2}.",
     "{0} için {1} verilmiş; en az {2} olmalı."},
    {MessageText::FlagRangeAtMost, "{0} is {1}; it must be at most {2}.",
     "{0} için {1} verilmiş; en fazla {2} olmalı."},
    {MessageText::FlagSwitchValue, "{0} is a switch: give it no value, or true/false, not \"{1}\".",
     "{0} bir açma/kapama anahtarı: değer vermeyin ya da true/false verin, \"{1}\" değil."},
    {MessageText::FlagWholeNumber, "{0} needs a whole number, not \"{1}\".",
     "{0} bir tam sayı ister, \"{1}\" değil."},
    {MessageText::FlagNumber, "{0} needs a number (like {2}), not \"{1}\".",
     "{0} bir sayı ister (örneğin {2}), \"{1}\" değil."},
    {MessageText::FlagChoice, "{0} is \"{1}\"; use one of: {2}.",
     "{0} için \"{1}\" verilmiş; şunlardan birini kullanın: {2}."},
    {MessageText::FlagChoiceOpen,
     "{0} is \"{1}\", not one of the values Ayar knows ({2}); it is passed as written.",
     "{0} için \"{1}\" verilmiş; bu, Ayar'ın bildiği değerlerden ({2}) biri değil; yazıldığı gibi "
     "geçirilir."},
    {MessageText::FlagEmpty, "{0} needs a value.", "{0} bir değer ister."},
    {MessageText::FlagPattern, "{0} is \"{1}\", which the engine does not take. {2}",
     "{0} için \"{1}\" verilmiş; motor bu biçimi kabul etmez. {2}"},
    {MessageText::FlagJson, "{0} needs a JSON object (like {2}), not \"{1}\".",
     "{0} bir JSON nesnesi ister (örneğin {2}), \"{1}\" değil."},
    {MessageText::StageLines, "{0}", "{0}"},
    {MessageText::StageWarning, "warning: {0}", "uyarı: {0}"},
    {MessageText::StageLoadingTokenizer, "loading the tokenizer", "tokenizer yükleniyor"},
    {MessageText::StageBuildingDataset, "building the dataset: {0}", "veri kümesi hazırlanıyor: {0}"},
    {MessageText::StageUsingEngine, "using the engine at {0}", "{0} adresindeki motor kullanılıyor"},
    {MessageText::StageChecking, "checking {0}", "{0} denetleniyor"},
    {MessageText::StageStarting, "starting {0} ({1})", "{0} başlatılıyor ({1})"},
    {MessageText::StageEngineReady, "engine ready at {0}: {1}", "motor {0} adresinde hazır: {1}"},
    {MessageText::StageSimulated, "the server says its results are SIMULATED (no real model runs)",
     "sunucu, sonuçlarının SİMÜLASYON olduğunu söylüyor (gerçek bir model çalışmıyor)"},
    {MessageText::StageIgnoreEosForced,
     "ignore_eos: true is sent with every request, as vLLM forces it for the random dataset",
     "ignore_eos: true her istekle gönderilir; vLLM rastgele veri kümesi için bunu zorunlu kılar"},
    {MessageText::StageGreedy,
     "temperature: 0 (greedy) is sent with every request, vLLM's default; set a temperature (--temperature) "
     "to change it",
     "temperature: 0 (açgözlü) her istekle gönderilir, vLLM'in varsayılanı; değiştirmek için bir sıcaklık "
     "(--temperature) verin"},
    {MessageText::StageNotReady, "the endpoint is not ready ({0}); trying again in 5 s",
     "uç nokta hazır değil ({0}); 5 sn sonra yeniden denenecek"},
    {MessageText::StageTestRequest, "sending one test request", "bir deneme isteği gönderiliyor"},
    {MessageText::StageWarmingUp, "warming up with {0} copies of the test request",
     "deneme isteğinin {0} kopyasıyla ısınılıyor"},
    {MessageText::StageRunning, "running {0}: {1} requests to {2}",
     "yük uygulanıyor, {0}: {2} adresine {1} istek"},
    {MessageText::StageStopping, "stopping the engine", "motor durduruluyor"},
    {MessageText::StageNoRealtime,
     "the client thread could not get real-time priority (it needs root or CAP_SYS_NICE); on a busy machine "
     "dispatch lag may suffer",
     "istemci iş parçacığı gerçek zamanlı öncelik alamadı (root ya da CAP_SYS_NICE gerekir); yoğun bir "
     "makinede gönderim gecikmesi artabilir"},
    {MessageText::StageProfilerDone, "POST {0}: done", "POST {0}: tamam"},
    {MessageText::StageProfilerFailed,
     "POST {0} failed ({1}); vLLM serves it only when started with a profiler configuration",
     "POST {0} başarısız ({1}); vLLM bunu yalnızca bir profil yapılandırmasıyla başlatıldığında sunar"},
    {MessageText::StageNoTokenize,
     "prompt lengths are counted with the Qwen3 tokenizer and {0} has no /tokenize to check them; if it "
     "serves another model family, give the served model's tokenizer.json (--tokenizer) to count them "
     "exactly",
     "istem uzunlukları Qwen3 tokenizer'ıyla sayılıyor ve {0} bunları denetleyecek bir /tokenize sunmuyor; "
     "başka bir model ailesi sunuyorsa, tam saymak için sunulan modelin tokenizer.json dosyasını "
     "(--tokenizer) verin"},
    {MessageText::StageTokenizeAgrees,
     "the server's /tokenize counts the prompts as the Qwen3 tokenizer does",
     "sunucunun /tokenize'ı istemleri Qwen3 tokenizer'ı gibi sayıyor"},
    {MessageText::StageTokenizeDiffersKept,
     "the server's tokenizer counts {0} tokens in the first prompt where the Qwen3 tokenizer counts {1}; "
     "prompt lengths stay the Qwen3 tokenizer's: give the served model's tokenizer.json (--tokenizer) to "
     "count them exactly",
     "sunucunun tokenizer'ı ilk istemde {0} token sayıyor, Qwen3 tokenizer'ı {1}; istem uzunlukları "
     "Qwen3'ünkü kalıyor: tam saymak için sunulan modelin tokenizer.json dosyasını (--tokenizer) verin"},
    {MessageText::StageTokenizeDiffersCut,
     "the server's tokenizer counts {0} tokens in the first prompt where the Qwen3 tokenizer counts {1}: "
     "cutting the prompts to their lengths with the server's /tokenize and /detokenize, as vLLM does (or "
     "give the served model's tokenizer.json with --tokenizer)",
     "sunucunun tokenizer'ı ilk istemde {0} token sayıyor, Qwen3 tokenizer'ı {1}: istemler vLLM'deki gibi "
     "sunucunun /tokenize ve /detokenize'ıyla uzunluklarına kesiliyor (ya da sunulan modelin tokenizer.json "
     "dosyasını --tokenizer ile verin)"},
    {MessageText::StagePromptsCut, "{0} of {1} prompts were cut to length",
     "{1} istemden {0} tanesi uzunluğuna kesildi"},
    {MessageText::DatasetSyntheticStandIn,
     "no ShareGPT file given (--dataset-path): using the synthetic ShareGPT-like set (~217 input and ~202 "
     "output tokens per request on average)",
     "ShareGPT dosyası verilmedi (--dataset-path): ShareGPT benzeri yapay küme kullanılıyor (istek başına "
     "ortalama ~217 giriş ve ~202 çıkış tokenı)"},
    {MessageText::DatasetSynthetic,
     "synthetic ShareGPT-like set (~217 input and ~202 output tokens per request on average)",
     "ShareGPT benzeri yapay küme (istek başına ortalama ~217 giriş ve ~202 çıkış tokenı)"},
    {MessageText::LoadRate, "rate {0} req/s", "saniyede {0} istek"},
    {MessageText::LoadAllAtOnce, "all at once", "hepsi birden"},
    {MessageText::LoadConcurrent, "concurrent {0}", "{0} eşzamanlı akış"},
    {MessageText::LoadThroughput, "throughput", "en yüksek hız (throughput)"},
    {MessageText::LoadSynchronous, "synchronous", "sıralı (synchronous)"},
    {MessageText::LoadRampUp, "{0} ramp-up {1} to {2} req/s", "{0} artış: saniyede {1} istekten {2} isteğe"},
    {MessageText::StudyRecommended, "recommended configuration: {0}", "önerilen yapılandırma: {0}"},
    {MessageText::StudyStartingEngine, "starting the engine of {0}",
     "{0} yapılandırmasının motoru başlatılıyor"},
    {MessageText::StudyEngineFailed, "the engine of {0} did not start: {1}",
     "{0} yapılandırmasının motoru başlamadı: {1}"},
    {MessageText::StudyEngineReady, "engine of {0} ready: {1}", "{0} yapılandırmasının motoru hazır: {1}"},
    {MessageText::StudyStoppingEngine, "stopping the engine of {0}",
     "{0} yapılandırmasının motoru durduruluyor"},
    {MessageText::RunTestRequestFailed,
     "the test request to {0} failed: {1}. Check the model, the API key, the API (--backend) and the path "
     "(--endpoint) against what the server serves",
     "{0} adresine gönderilen deneme isteği başarısız oldu: {1}. Modeli, API anahtarını, API'yi (--backend) "
     "ve yolu (--endpoint) sunucunun sunduklarıyla karşılaştırın"},
    {MessageText::EngineExited, "{0} exited during start-up ({1}) before {2} answered.",
     "{0} başlarken kapandı ({1}); {2} yanıt vermedi."},
    {MessageText::EngineNotReady,
     "{0} did not become ready: {1} did not answer 200 within {2} (last answer: {3}). The engine was "
     "stopped. If the model needs longer to load, raise the start-up timeout.",
     "{0} hazır olmadı: {1}, {2} içinde 200 yanıtı vermedi (son yanıt: {3}). Motor durduruldu. Modelin "
     "yüklenmesi daha uzun sürüyorsa başlangıç zaman aşımını artırın."},
    {MessageText::EngineStartCancelled, "Starting {0} was cancelled; the engine was stopped.",
     "{0} başlatılması iptal edildi; motor durduruldu."},
    {MessageText::EngineStartDetails, "Command: {0}\nLog: {1}", "Komut: {0}\nGünlük: {1}"},
    {MessageText::EngineLogTail, "Last log lines:\n{0}", "Günlüğün son satırları:\n{0}"},
    {MessageText::EngineSilent, "(The engine printed nothing.)", "(Motor hiçbir şey yazmadı.)"},
    {MessageText::RemoteWantsKey,
     "The endpoint {0} refused the request (HTTP {1} from {0}/v1/models): it wants an API key. Name the "
     "variable holding it in \"api_key_env\".",
     "{0} uç noktası isteği reddetti ({0}/v1/models, HTTP {1}): bir API anahtarı istiyor. Anahtarı tutan "
     "değişkeni \"api_key_env\" alanında belirtin."},
    {MessageText::RemoteKeyRefused,
     "The endpoint {0} refused the request (HTTP {1} from {0}/v1/models): the API key was not accepted. "
     "Check the key in {2}.",
     "{0} uç noktası isteği reddetti ({0}/v1/models, HTTP {1}): API anahtarı kabul edilmedi. {2} içindeki "
     "anahtarı denetleyin."},
    {MessageText::RemoteUnreachable,
     "The endpoint {0} is not reachable: GET {0}/health: {1}; GET {0}/v1/models: {2}. Check the address and "
     "that the server is running.",
     "{0} uç noktasına ulaşılamıyor: GET {0}/health: {1}; GET {0}/v1/models: {2}. Adresi ve sunucunun "
     "çalıştığını denetleyin."},
    {MessageText::RunNoTokenizer,
     "no tokenizer at {0}: run scripts/setup.sh to fetch the Qwen3 tokenizer, or give a tokenizer.json "
     "(--tokenizer)",
     "{0} konumunda tokenizer yok: Qwen3 tokenizer'ını indirmek için scripts/setup.sh'ı çalıştırın ya da bir "
     "tokenizer.json (--tokenizer) verin"},
    {MessageText::RunModelsUnanswered,
     "could not ask {0}/v1/models which model it serves ({1}): give the model name",
     "{0}/v1/models adresine hangi modeli sunduğu sorulamadı ({1}): model adını verin"},
    {MessageText::RunModelsEmpty, "{0}/v1/models listed no model: give the model name",
     "{0}/v1/models hiçbir model listelemedi: model adını verin"},
// The areas in the order of their ids in message_text.h (not sorted).
// clang-format off
#include "core/report/message_rows_general.inc"
#include "core/report/message_rows_study.inc"
#include "core/report/message_rows_dataset.inc"
#include "core/report/message_rows_engines.inc"
#include "core/report/message_rows_tokenizer.inc"
#include "core/report/message_rows_store.inc"
#include "core/report/message_rows_load.inc"
#include "core/report/message_rows_results.inc"
    // clang-format on
    {MessageText::ProfileWholeNumber, "profile field \"{0}\" must be a whole number from {2} to {3}, not {1}",
     "\"{0}\" profil alanı {2} ile {3} arasında bir tam sayı olmalı, {1} değil"},
    {MessageText::ProfileTooManyPrompts,
     "--num-prompts is {0}; one run sends at most {1} requests (each one's record is kept in memory): split "
     "it into several runs",
     "--num-prompts {0} verilmiş; bir koşu en fazla {1} istek gönderir (her isteğin kaydı bellekte tutulur): "
     "birkaç koşuya bölün"},
    {MessageText::ProfileRequestTooLong,
     "{0} make requests of up to {1} tokens (prompt and output); Ayar takes at most {2} tokens a request, "
     "more than any model's context: lower them",
     "{0} ile istekler {1} token'a (istem ve çıktı) kadar uzuyor; Ayar bir istekte en fazla {2} token kabul "
     "eder, bu her modelin bağlamından fazladır: değerleri düşürün"},
    {MessageText::ProfilePromptsTooLarge,
     "{0} make {1} prompt tokens in all; the prompts are built in memory before the run, and Ayar takes at "
     "most {2}: send fewer or shorter prompts",
     "{0} ile istemler toplam {1} token tutuyor; istemler koşudan önce bellekte hazırlanır ve Ayar en fazla "
     "{2} token kabul eder: daha az ya da daha kısa istem gönderin"},
    {MessageText::RunBeyondContext,
     "the longest request has {0} prompt tokens and asks for {1} output tokens, beyond {2}'s context of {3} "
     "tokens (max_model_len, as the server reports it): lower {4}",
     "en uzun istekte {0} istem token'ı var ve {1} çıktı token'ı isteniyor; bu, {2} modelinin {3} token'lık "
     "bağlamını (sunucunun bildirdiği max_model_len) aşıyor: {4} değerini düşürün"},
    {MessageText::RunEngineDied,
     "the engine ({0}) stopped during the run ({1}); the run stopped there and is stored as failed, with the "
     "{2} of {3} requests that had finished. Its log: {4}",
     "motor ({0}) koşu sırasında durdu ({1}); koşu orada durdu ve başarısız olarak kaydedildi, bitmiş {2} "
     "istek (toplam {3}) saklandı. Motorun günlüğü: {4}"},
    {MessageText::InputIsFolder, "{0} is a folder; give the path of {1}",
     "{0} bir klasör; bir {1} yolunu verin"},
    {MessageText::InputKindStudy, "a study file (.json)", "çalışma dosyasının (.json)"},
    {MessageText::InputKindProfile, "a profile file (.json)", "profil dosyasının (.json)"},
    {MessageText::InputKindEngineTemplate, "an engine template (.json)", "motor şablonunun (.json)"},
    {MessageText::StudyFieldControlCharacter,
     "holds a control character ({0} at byte {1}); names and titles are one line of text",
     "bir denetim karakteri içeriyor ({1}. baytta {0}); adlar ve başlıklar tek satırlık metindir"},
    {MessageText::JsonTooDeep,
     "{0}: the JSON nests arrays and objects more than {1} levels deep, which no result file does; "
     "check that this is the file you meant (it may be damaged).",
     "{0}: JSON, dizileri ve nesneleri {1} düzeyden daha derin iç içe yerleştiriyor; hiçbir sonuç "
     "dosyası bunu yapmaz. Doğru dosyayı verdiğinizi denetleyin (dosya bozuk olabilir)."},
    {MessageText::ImportFileTooLarge,
     "{0} is {1} MB; a result file is read whole into memory, several times over, so files of at most "
     "{2} MB are read. Import the run's summary (saved without --save-detailed) or split the run.",
     "{0} {1} MB büyüklüğünde; bir sonuç dosyası belleğe bütünüyle, birkaç kez okunduğundan en fazla {2} "
     "MB'lık dosyalar okunur. Koşunun özetini (--save-detailed olmadan kaydedileni) içe aktarın ya da "
     "koşuyu bölün."},
    {MessageText::ImportOutOfMemory,
     "{0} ({1} MB): there is not enough memory to read it; nothing was stored. Close other programs or "
     "import a smaller file.",
     "{0} ({1} MB): okumak için yeterli bellek yok; hiçbir şey kaydedilmedi. Başka programları kapatın "
     "ya da daha küçük bir dosya içe aktarın."},
    {MessageText::ImportImpossibleValue,
     "{0}: field '{1}' is {2}, which cannot be true: {3}. Nothing was stored; check the file (it may "
     "have been edited or damaged).",
     "{0}: '{1}' alanı {2}; bu doğru olamaz: {3}. Hiçbir şey kaydedilmedi; dosyayı denetleyin "
     "(düzenlenmiş ya da bozulmuş olabilir)."},
    {MessageText::ImportNoRequestCount,
     "{0}: the export has no {1}, so how many requests the run made is unknown, and a run stored "
     "without it would contradict its own figures. Nothing was stored.",
     "{0}: dışa aktarımda {1} yok; koşunun kaç istek yaptığı bilinmiyor ve bu olmadan kaydedilen bir "
     "koşu kendi ölçümleriyle çelişir. Hiçbir şey kaydedilmedi."},
    {MessageText::ImportNoDuration,
     "{0}: the export has neither {1}, so the run's duration is unknown and no throughput can be given. "
     "Nothing was stored.",
     "{0}: dışa aktarımda {1} alanlarının hiçbiri yok; koşunun süresi bilinmiyor ve hiçbir hız "
     "verilemez. Hiçbir şey kaydedilmedi."},
// clang-format off
#include "core/report/message_rows_import.inc"
    // clang-format on
    {MessageText::ReportCannotWrite, "cannot write the report to {0}{1}; choose a folder you can write to",
     "rapor {0} dosyasına yazılamıyor{1}; yazabildiğiniz bir klasör seçin"},
};
static_assert(std::size(kPhrases) == static_cast<std::size_t>(MessageText::Count_),
              "every MessageText needs its row in kPhrases");

constexpr bool inOrder() {
  for (std::size_t i = 0; i < std::size(kPhrases); ++i) {
    if (static_cast<std::size_t>(kPhrases[i].id) != i) return false;
  }
  return true;
}
static_assert(inOrder(), "kPhrases rows must follow the MessageText order");

}  // namespace

std::string_view messageText(MessageText id, ReportLanguage language) {
  const Phrase& phrase = kPhrases[static_cast<std::size_t>(id)];
  return language == ReportLanguage::Turkish ? phrase.turkish : phrase.english;
}

std::string fillPlaceholders(std::string_view pattern, const std::vector<std::string_view>& args) {
  std::string out;
  out.reserve(pattern.size() + 32);
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    std::size_t k = i + 1;
    std::size_t index = 0;
    while (pattern[i] == '{' && k < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[k]))) {
      index = index * 10 + static_cast<std::size_t>(pattern[k] - '0');
      ++k;
    }
    if (k > i + 1 && k < pattern.size() && pattern[k] == '}') {
      assert(index < args.size());
      if (index < args.size()) out += args[index];
      i = k;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

MessageArgument numberArgument(double value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return decimalArgument(std::string(text, result.ptr));
}

MessageArgument decimalArgument(std::string english) {
  std::string turkish = english;
  for (char& c : turkish) {
    if (c == '.') c = ',';
  }
  return {std::move(english), std::move(turkish)};
}

MessageArgument errorArgument(const std::exception& error) {
  return {errorText(error, ReportLanguage::English), errorText(error, ReportLanguage::Turkish)};
}

MessageArgument countArgument(long long value) {
  return {ReportLocale(ReportLanguage::English).integer(value),
          ReportLocale(ReportLanguage::Turkish).integer(value)};
}

std::string errorText(const std::exception& error, ReportLanguage language) {
  if (const auto* said = dynamic_cast<const MessageError*>(&error)) return said->message().in(language);
  return error.what();
}

std::string Message::in(ReportLanguage language) const {
  if (empty()) return {};
  std::vector<std::string_view> values;
  values.reserve(args.size());
  for (const MessageArgument& arg : args)
    values.emplace_back(arg.in(language));
  return fillPlaceholders(messageText(id, language), values);
}

}  // namespace ayar

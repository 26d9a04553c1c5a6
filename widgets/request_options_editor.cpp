#include "widgets/request_options_editor.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/load/openai_request.h"

namespace ayar {

namespace {

const char* const kApis[] = {"openai", "openai-chat"};

QString defaultPath(const std::string& api) {
  const auto path = defaultEndpointPath(parseBackendName(api));
  return QString::fromUtf8(path.data(), static_cast<qsizetype>(path.size()));
}

QString optionalText(const std::optional<double>& value) {
  return value ? formatUiNumber(*value) : QString();
}

// "50 90 99" (spaces or semicolons; commas too where the UI's decimal mark is not one).
QStringList percentileWords(const QString& text) {
  const bool commaDecimal = QLocale().decimalPoint() == QStringLiteral(",");
  return text.split(QRegularExpression(commaDecimal ? QStringLiteral("[\\s;]+") : QStringLiteral("[\\s;,]+")),
                    Qt::SkipEmptyParts);
}

QString percentilesText(const std::vector<double>& percentiles) {
  QStringList words;
  for (double p : percentiles)
    words.append(formatUiNumber(p));
  return words.join(QLatin1Char(' '));
}

}  // namespace

RequestOptionsEditor::RequestOptionsEditor(QWidget* parent) : QWidget(parent) {
  m_form = new QFormLayout(this);
  m_form->setContentsMargins(0, 0, 0, 0);
  m_form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  const auto section = [this] {
    auto* caption = new QLabel(this);
    QFont bold = caption->font();
    bold.setBold(true);
    caption->setFont(bold);
    m_sections.push_back(caption);
    m_form->addRow(caption);
  };
  const auto line = [this](const char* name) {
    auto* edit = new QLineEdit(this);
    edit->setObjectName(QString::fromLatin1(name));
    connect(edit, &QLineEdit::textChanged, this, &RequestOptionsEditor::changed);
    m_form->addRow(new QLabel(this), edit);
    return edit;
  };

  section();
  m_api = new QComboBox(this);
  m_api->setObjectName(QStringLiteral("api"));
  for (const char* api : kApis)
    m_api->addItem(QString(), QString::fromLatin1(api));
  m_api->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_api->setMinimumContentsLength(8);
  m_form->addRow(new QLabel(this), m_api);
  m_endpoint = line("endpoint");
  m_requestModel = line("requestModel");
  m_ignoreEos = new QCheckBox(this);
  m_ignoreEos->setObjectName(QStringLiteral("ignoreEos"));
  m_form->addRow(m_ignoreEos);
  m_headers = new QPlainTextEdit(this);
  m_headers->setObjectName(QStringLiteral("headers"));
  m_headers->setTabChangesFocus(true);
  m_headers->setFixedHeight(m_headers->fontMetrics().lineSpacing() * 3 + 12);
  m_form->addRow(new QLabel(this), m_headers);
  m_extraBody = line("extraBody");
  m_timeout = line("requestTimeout");
  m_warmups = new QSpinBox(this);
  m_warmups->setObjectName(QStringLiteral("warmups"));
  m_warmups->setRange(0, 100000);
  m_form->addRow(new QLabel(this), m_warmups);
  m_readyCheck = line("readyCheckTimeout");
  m_requestIdPrefix = line("requestIdPrefix");
  m_tokenizer = line("tokenizer");

  section();
  m_temperature = line("temperature");
  m_topP = line("topP");
  m_topK = line("topK");
  m_minP = line("minP");
  m_frequencyPenalty = line("frequencyPenalty");
  m_presencePenalty = line("presencePenalty");
  m_repetitionPenalty = line("repetitionPenalty");
  m_logprobs = line("logprobs");
  m_numbers = {{m_temperature, &ProfileSpec::temperature},
               {m_topP, &ProfileSpec::topP},
               {m_minP, &ProfileSpec::minP},
               {m_frequencyPenalty, &ProfileSpec::frequencyPenalty},
               {m_presencePenalty, &ProfileSpec::presencePenalty},
               {m_repetitionPenalty, &ProfileSpec::repetitionPenalty}};

  section();
  m_percentiles = line("percentiles");
  m_sloTtft = line("sloTtft");
  m_sloTpot = line("sloTpot");
  m_sloE2el = line("sloE2el");

  connect(m_api, &QComboBox::currentIndexChanged, this, &RequestOptionsEditor::onApiChanged);
  connect(m_ignoreEos, &QCheckBox::toggled, this, [this](bool on) {
    if (!m_forcedIgnoreEos) m_chosenIgnoreEos = on;
    emit changed();
  });
  connect(m_headers, &QPlainTextEdit::textChanged, this, &RequestOptionsEditor::changed);
  connect(m_warmups, &QSpinBox::valueChanged, this, &RequestOptionsEditor::changed);
  retranslate();
  setRunSpec(RunSpec{});
}

QString RequestOptionsEditor::label(QWidget* field) const {
  if (field == m_ignoreEos) return m_ignoreEos->text();
  auto* l = qobject_cast<QLabel*>(m_form->labelForField(field));
  return l ? l->text() : QString();
}

void RequestOptionsEditor::retranslate() {
  m_sections[0]->setText(tr("Requests"));
  m_sections[1]->setText(tr("Sampling (sent in every request)"));
  m_sections[2]->setText(tr("Results"));
  const std::pair<QWidget*, QString> labels[] = {{m_api, tr("API")},
                                                 {m_endpoint, tr("Path")},
                                                 {m_requestModel, tr("Model name sent")},
                                                 {m_headers, tr("Headers")},
                                                 {m_extraBody, tr("Extra body (JSON)")},
                                                 {m_timeout, tr("Request timeout (s)")},
                                                 {m_warmups, tr("Warm-up requests")},
                                                 {m_readyCheck, tr("Ready check (s)")},
                                                 {m_requestIdPrefix, tr("Request id prefix")},
                                                 {m_tokenizer, tr("Tokenizer")},
                                                 {m_logprobs, tr("Log-probabilities")},
                                                 {m_temperature, tr("Temperature")},
                                                 {m_topP, tr("Top-p")},
                                                 {m_topK, tr("Top-k")},
                                                 {m_minP, tr("Min-p")},
                                                 {m_frequencyPenalty, tr("Frequency penalty")},
                                                 {m_presencePenalty, tr("Presence penalty")},
                                                 {m_repetitionPenalty, tr("Repetition penalty")},
                                                 {m_percentiles, tr("Percentiles")},
                                                 {m_sloTtft, tr("Goodput SLO: TTFT (ms)")},
                                                 {m_sloTpot, tr("Goodput SLO: TPOT (ms)")},
                                                 {m_sloE2el, tr("Goodput SLO: latency (ms)")}};
  for (const auto& [field, text] : labels) {
    if (auto* l = qobject_cast<QLabel*>(m_form->labelForField(field))) l->setText(text);
  }
  m_api->setItemText(0, tr("Completions"));
  m_api->setItemText(1, tr("Chat"));
  m_api->setToolTip(
      tr("Completions sends a prompt (vLLM's openai backend); Chat sends messages through "
         "the model's chat template (openai-chat)."));
  m_endpoint->setPlaceholderText(defaultPath(api()));
  m_requestModel->setPlaceholderText(tr("the engine's model name"));
  m_ignoreEos->setText(tr("Ask for the whole output length (ignore_eos)"));
  m_ignoreEos->setToolTip(m_forcedIgnoreEos ? tr("The random dataset always sends ignore_eos, as vLLM does: "
                                                 "every reply is exactly Output tokens long.")
                                            : tr("The server keeps generating past the end-of-text token "
                                                 "until the requested length."));
  m_headers->setPlaceholderText(tr("Name: value, one a line. Used for this session only, never stored."));
  m_extraBody->setPlaceholderText(QStringLiteral("{\"top_k\": 20}"));
  m_extraBody->setToolTip(tr("A JSON object merged into every request body."));
  m_timeout->setPlaceholderText(formatUiNumber(RunSpec{}.requestTimeoutS));
  m_temperature->setPlaceholderText(tr("0: greedy"));
  for (QLineEdit* e : {m_topP, m_topK, m_minP, m_frequencyPenalty, m_presencePenalty, m_repetitionPenalty}) {
    e->setPlaceholderText(tr("not sent"));
    e->setToolTip(tr("Empty: not sent, the server's default applies."));
  }
  m_readyCheck->setPlaceholderText(tr("one try"));
  m_readyCheck->setToolTip(tr("Retry the test request every 5 s for this long before the run; 0 skips it."));
  m_requestIdPrefix->setPlaceholderText(tr("none"));
  m_requestIdPrefix->setToolTip(tr("Each request carries x-request-id: the prefix and its number."));
  m_tokenizer->setPlaceholderText(tr("the model's, else Qwen3"));
  m_tokenizer->setToolTip(
      tr("A tokenizer.json, or a folder holding one, to count prompt and output tokens "
         "as the served model does."));
  m_logprobs->setPlaceholderText(tr("not asked"));
  m_logprobs->setToolTip(tr("Log-probabilities to ask for with each token (completions)."));
  m_percentiles->setToolTip(
      tr("Which percentiles the results list, e.g. %1").arg(QStringLiteral("50 90 99")));
  for (QLineEdit* e : {m_sloTtft, m_sloTpot, m_sloE2el})
    e->setPlaceholderText(tr("none"));
  m_warmups->setLocale(QLocale());
}

void RequestOptionsEditor::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

std::string RequestOptionsEditor::api() const {
  const QString chosen = m_api->currentData().toString();
  return chosen.isEmpty() ? std::string("openai") : chosen.toStdString();
}

void RequestOptionsEditor::onApiChanged() {
  // A path that was the old API's own follows the API; one the user typed stays.
  const std::string now = api();
  if (m_endpoint->text().trimmed() == defaultPath(m_shownApi)) m_endpoint->setText(defaultPath(now));
  m_shownApi = now;
  m_endpoint->setPlaceholderText(defaultPath(now));
  emit changed();
}

void RequestOptionsEditor::setProfileFields(const ProfileSpec& profile) {
  const bool wasBlocked = blockSignals(true);
  const std::string backend = profile.backend.empty() ? std::string("openai") : profile.backend;
  m_api->setCurrentIndex(std::max(0, m_api->findData(QString::fromStdString(backend))));
  m_shownApi = api();
  m_endpoint->setText(QString::fromStdString(profile.endpoint));
  m_endpoint->setPlaceholderText(defaultPath(m_shownApi));
  m_chosenIgnoreEos = profile.ignoreEos;
  m_ignoreEos->setChecked(m_forcedIgnoreEos || profile.ignoreEos);
  for (const Number& n : m_numbers)
    n.field->setText(optionalText(profile.*n.member));
  m_topK->setText(profile.topK ? QLocale().toString(*profile.topK) : QString());
  for (QWidget* field : findChildren<QWidget*>())
    markField(field, QString());
  blockSignals(wasBlocked);
  emit changed();
}

void RequestOptionsEditor::setRunSpec(const RunSpec& spec) {
  ProfileSpec profile = spec.profile;
  if (!spec.backend.empty()) profile.backend = spec.backend;
  if (!spec.endpoint.empty()) profile.endpoint = spec.endpoint;
  const bool wasBlocked = blockSignals(true);
  setProfileFields(profile);
  m_requestModel->setText(QString::fromStdString(spec.requestModel));
  QStringList headers;
  for (const auto& [name, value] : spec.headers)
    headers.append(QString::fromStdString(name) + QStringLiteral(": ") + QString::fromStdString(value));
  m_headers->setPlainText(headers.join(QLatin1Char('\n')));
  m_extraBody->setText(spec.extraBody.is_object() && spec.extraBody.empty()
                           ? QString()
                           : QString::fromStdString(spec.extraBody.dump()));
  m_timeout->setText(
      spec.requestTimeoutS == RunSpec{}.requestTimeoutS ? QString() : formatUiNumber(spec.requestTimeoutS));
  m_warmups->setValue(spec.numWarmups);
  m_readyCheck->setText(spec.readyCheckTimeoutS ? formatUiNumber(*spec.readyCheckTimeoutS) : QString());
  m_requestIdPrefix->setText(QString::fromStdString(spec.requestIdPrefix));
  m_tokenizer->setText(QString::fromStdString(spec.tokenizer));
  m_logprobs->setText(spec.logprobs ? QLocale().toString(*spec.logprobs) : QString());
  m_percentiles->setText(percentilesText(spec.summary.percentiles));
  m_sloTtft->setText(optionalText(spec.summary.goodput.ttftMs));
  m_sloTpot->setText(optionalText(spec.summary.goodput.tpotMs));
  m_sloE2el->setText(optionalText(spec.summary.goodput.e2elMs));
  blockSignals(wasBlocked);
  emit changed();
}

void RequestOptionsEditor::setDataset(const std::string& dataset) {
  m_forcedIgnoreEos = dataset == "random";
  const bool wasBlocked = m_ignoreEos->blockSignals(true);
  m_ignoreEos->setChecked(m_forcedIgnoreEos || m_chosenIgnoreEos);
  m_ignoreEos->blockSignals(wasBlocked);
  m_ignoreEos->setEnabled(!m_forcedIgnoreEos);
  retranslate();
}

void RequestOptionsEditor::applyTo(RunSpec& spec) const {
  ProfileSpec& p = spec.profile;
  spec.backend.clear();
  spec.endpoint.clear();
  p.backend = api();
  p.endpoint = m_endpoint->text().trimmed().toStdString();
  p.ignoreEos = m_chosenIgnoreEos;
  for (const Number& n : m_numbers) {
    const QString text = n.field->text().trimmed();
    p.*n.member = text.isEmpty() ? std::nullopt : parseUiNumber(text);
  }
  bool ok = false;
  const int topK = QLocale().toInt(m_topK->text().trimmed(), &ok);
  p.topK = ok ? std::optional<int>(topK) : std::nullopt;
  spec.requestModel = m_requestModel->text().trimmed().toStdString();
  spec.headers.clear();
  for (const QString& line : m_headers->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
    const qsizetype colon = line.indexOf(QLatin1Char(':'));
    if (colon <= 0) continue;
    spec.headers.emplace_back(line.left(colon).trimmed().toStdString(),
                              line.mid(colon + 1).trimmed().toStdString());
  }
  const std::string body = m_extraBody->text().trimmed().toStdString();
  const auto parsed = nlohmann::json::parse(body.empty() ? std::string("{}") : body, nullptr, false);
  if (parsed.is_object()) spec.extraBody = parsed;
  if (const auto timeout = parseUiNumber(m_timeout->text()); timeout && *timeout > 0) {
    spec.requestTimeoutS = *timeout;
  } else if (m_timeout->text().trimmed().isEmpty()) {
    spec.requestTimeoutS = RunSpec{}.requestTimeoutS;
  }
  spec.numWarmups = m_warmups->value();
  spec.readyCheckTimeoutS = parseUiNumber(m_readyCheck->text());
  spec.requestIdPrefix = m_requestIdPrefix->text().trimmed().toStdString();
  spec.tokenizer = m_tokenizer->text().trimmed().toStdString();
  bool logprobsRead = false;
  const int logprobs = QLocale().toInt(m_logprobs->text().trimmed(), &logprobsRead);
  spec.logprobs = logprobsRead ? std::optional<int>(logprobs) : std::nullopt;
  std::vector<double> percentiles;
  bool allRead = true;
  for (const QString& word : percentileWords(m_percentiles->text())) {
    const auto value = parseUiNumber(word);
    if (value) percentiles.push_back(*value);
    allRead = allRead && value.has_value();
  }
  if (allRead && !percentiles.empty()) spec.summary.percentiles = percentiles;
  spec.summary.goodput.ttftMs = parseUiNumber(m_sloTtft->text());
  spec.summary.goodput.tpotMs = parseUiNumber(m_sloTpot->text());
  spec.summary.goodput.e2elMs = parseUiNumber(m_sloE2el->text());
}

FieldProblems RequestOptionsEditor::problems() const {
  FieldProblems out;
  const auto add = [&](QWidget* field, const QString& what) {
    out.push_back({field, tr("%1: %2").arg(label(field), what)});
  };
  const QString path = m_endpoint->text().trimmed();
  if (!path.isEmpty() && !path.startsWith(QLatin1Char('/')))
    add(m_endpoint, tr("a path starts with /, like %1.").arg(defaultPath(api())));
  // Each number field: empty is "not sent"; anything else must read as a number in its range.
  const auto number = [&](QLineEdit* field, auto inRange, const QString& range) {
    const QString text = field->text().trimmed();
    if (text.isEmpty()) return;
    const auto value = parseUiNumber(text);
    if (!value) {
      add(field, tr("\"%1\" is not a number. %2").arg(text, range));
    } else if (!inRange(*value)) {
      add(field, range);
    }
  };
  number(
      m_temperature, [](double v) { return v >= 0; }, tr("Give 0 or more, or leave it empty."));
  number(
      m_topP, [](double v) { return v > 0 && v <= 1; },
      tr("Give a number above 0 and at most %1, or leave it empty.").arg(formatUiNumber(1)));
  if (const QString k = m_topK->text().trimmed(); !k.isEmpty()) {
    bool ok = false;
    const int value = QLocale().toInt(k, &ok);
    if (!ok || value < -1 || value == 0)
      add(m_topK, tr("\"%1\" is not a count of tokens. Give a whole number of at least 1 (-1 turns it off), "
                     "or leave it empty.")
                      .arg(k));
  }
  number(
      m_minP, [](double v) { return v >= 0 && v <= 1; },
      tr("Give a number from 0 to %1, or leave it empty.").arg(formatUiNumber(1)));
  for (QLineEdit* penalty : {m_frequencyPenalty, m_presencePenalty})
    number(
        penalty, [](double v) { return v >= -2 && v <= 2; },
        tr("Give a number from %1 to %2, or leave it empty.").arg(formatUiNumber(-2), formatUiNumber(2)));
  number(
      m_repetitionPenalty, [](double v) { return v > 0; }, tr("Give a number above 0, or leave it empty."));
  int lineNumber = 0;
  for (const QString& line : m_headers->toPlainText().split(QLatin1Char('\n'))) {
    ++lineNumber;
    if (line.trimmed().isEmpty()) continue;
    const qsizetype colon = line.indexOf(QLatin1Char(':'));
    const QString name = colon > 0 ? line.left(colon).trimmed() : QString();
    static const QRegularExpression token(QStringLiteral("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$"));
    if (name.isEmpty() || !token.match(name).hasMatch()) {
      add(m_headers, tr("line %1 is not \"Name: value\" (a header name is letters, digits and dashes).")
                         .arg(lineNumber));
      break;
    }
  }
  if (const std::string body = m_extraBody->text().trimmed().toStdString(); !body.empty()) {
    const auto parsed = nlohmann::json::parse(body, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object())
      add(m_extraBody, tr("not a JSON object. Write one such as %1, or leave it empty.")
                           .arg(QStringLiteral("{\"top_k\": 20}")));
  }
  number(
      m_timeout, [](double v) { return v > 0; }, tr("Give a number of seconds above 0, or leave it empty."));
  number(
      m_readyCheck, [](double v) { return v >= 0; },
      tr("Give a number of seconds (0 skips the test request), or leave it empty for one try."));
  if (const QString file = m_tokenizer->text().trimmed(); !file.isEmpty() && !QFileInfo::exists(file))
    add(m_tokenizer, tr("there is no file or folder %1. Give a tokenizer.json or its folder, or leave it "
                        "empty.")
                         .arg(file));
  if (const QString text = m_logprobs->text().trimmed(); !text.isEmpty()) {
    bool ok = false;
    const int value = QLocale().toInt(text, &ok);
    if (!ok || value < 0)
      add(m_logprobs, tr("\"%1\" is not a count. Give a whole number, or leave it empty.").arg(text));
  }
  const QStringList words = percentileWords(m_percentiles->text());
  for (const QString& word : words) {
    const auto value = parseUiNumber(word);
    if (!value || *value <= 0 || *value > 100) {
      add(m_percentiles, tr("\"%1\" is not a percentile. List numbers above 0 and at most 100, e.g. %2.")
                             .arg(word, QStringLiteral("50 90 99")));
      break;
    }
  }
  if (words.isEmpty())
    add(m_percentiles, tr("empty. List at least one, e.g. %1.").arg(QStringLiteral("50 90 99")));
  for (QLineEdit* slo : {m_sloTtft, m_sloTpot, m_sloE2el})
    number(
        slo, [](double v) { return v > 0; }, tr("Give milliseconds above 0, or leave it empty."));
  return out;
}

}  // namespace ayar

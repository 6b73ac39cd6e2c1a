/**
 * The Brazilian Portuguese texts of the demo series published in both languages, by English name:
 * what the Portuguese site shows instead of the original (series_texts, docs/data-model.md). The
 * Portuguese name is the definition's `pt`; update texts and chapter name formats are generated
 * from the same templates as the English ones (build.ts). Series published only in Portuguese need
 * none: their original text is already Portuguese.
 */

/** Chapter name formats of the demo, in Portuguese. */
export const PT_NAME_FORMATS: Record<string, string> = {
  'Round {num}': 'Rodada {num}',
  '{ord} Chapter': '{ord} Capítulo',
  'Ch. {num}': 'Cap. {num}',
};

export const PT_DESCRIPTIONS: Record<string, string> = {
  'The Lantern Road': 'A aprendiz de um acendedor de lampiões parte pela velha estrada dos peregrinos para reacender as lanternas que mantêm os espíritos adormecidos. Cada vila por onde ela passa esqueceu uma promessa diferente. Sua única companhia é uma raposa que jura ser um deus aposentado.',
  'Blade of the Quiet Moon': 'Uma espadachim desonrada caça os cinco mestres que incendiaram sua escola. Ela só luta na lua nova, quando ninguém pode ver seu rosto. O último mestre da lista é o homem que a criou.',
  'Crimson Tide Ronin': 'Um samurai sem mestre se junta a uma tripulação pirata para pagar uma dívida que nem lembra de ter feito. A tripulação persegue um navio que afundou há duzentos anos. Por algum motivo, ele continua deixando rastros frescos na água.',
  'Ninth Floor Exorcist': 'O nono andar do Edifício Kanda não aparece em nenhuma planta. A funcionária temporária Mei é mandada para lá no primeiro dia e encontra uma mesa, um telefone e uma lista enorme de exorcismos atrasados. Quem ocupava o cargo antes deixou um bilhete: não atenda depois da meia-noite.',
  'Kaiju Weather Report': 'Numa cidade por onde monstros gigantes passam duas vezes por semana, a previsão do tempo da noite é o programa mais assistido da TV. A apresentadora novata Aoi precisa prever onde eles vão pisar. Ela quase sempre erra, e sempre ao vivo.',
  'The Paper Crane Pact': 'Dois amigos de infância prometeram dobrar mil grous de papel antes do festival de verão. Dez anos depois, só um deles se lembra da promessa. O outro acabou de voltar para a cidade com novecentos e noventa e nove grous numa caixa.',
  'Midnight Volleyball Club': 'O ginásio fica ocupado o dia inteiro, então o pior time de vôlei da província treina à meia-noite. Eles têm seis jogadores, uma bola e um zelador que já jogou na seleção. O torneio regional é daqui a três meses.',
  'Harbor Lights': 'Toda noite, o faroleiro de Port Avery conta os navios que voltam para casa. Ontem à noite havia um navio a mais. A tripulação jura que saiu do porto há quarenta anos.',
  'The Clockwork Sheriff': 'A cidade de Dry Creek elegeu um autômato de latão como xerife porque ninguém mais queria o cargo. Ele não dorme, não bebe e não aceita suborno. Os foras da lei estão ficando sem ideias.',
  'Captain Nova and the Lost Signal': 'A Capitã Nova já salvou a galáxia onze vezes, e ninguém se lembra de nenhuma delas. Um pedido de socorro da sua própria nave, enviado daqui a dez anos, a faz correr atrás do próprio futuro. Não é o futuro que ela queria.',
  'Saltwater Saints': 'Um bando de contrabandistas aposentados compra uma balsa para levar turistas entre duas ilhas sonolentas. Seus antigos rivais também se aposentaram nas ilhas. Nenhum dos lados leva muito jeito para a aposentadoria.',
  'The Last Cartographer': 'O mundo muda de forma toda noite, e só mapas desenhados à mão o mantêm no lugar. O último cartógrafo está velho, cansado e sem tinta. Sua aprendiz nunca traçou uma linha reta na vida.',
  'Second Chance Florist': 'Depois que o casamento é cancelado, Lily gasta todas as economias numa floricultura à beira da falência. A loja vem com um senhorio ranzinza que só compra flores para velórios. Toda semana ele compra um buquê a mais do que precisa.',
  'My Roommate Is a Dragon': 'O aluguel na cidade está impossível, então Theo responde a um anúncio de quarto num apartamento grande demais. O colega de quarto é um dragão que coleciona plantas. O contrato tem uma cláusula sobre fogo.',
  'The Villainess Retires Early': 'Renascida como a vilã do seu romance favorito, a duquesa Adeline sabe exatamente como a história termina. Em vez de tramar, ela pede aposentadoria antecipada e abre uma padaria no interior. O herói, o vilão e o príncipe herdeiro parecem todos gostar de pão.',
  'Level Zero Hunter': 'Todo caçador desperta com um nível. Min-seo despertou no zero, e o sistema se recusa a deixá-lo subir de nível. Mas deixa que ele faça os outros descerem.',
  'Heir of the Frozen Throne': 'A rainha do gelo morreu sem nomear herdeiro, e seu trono congelou no instante em que ela caiu. Quem conseguir descongelá-lo governará o norte. A cavalariça que o tocou sem querer não parou mais de tremer.',
  'The Weather Witch of Elm Street': 'A velha senhora Pell, da Rua Elm, faz o tempo da cidade desde 1962. Ela vai se aposentar, e sua substituta é uma menina de doze anos que só sabe fazer neblina. A feira de verão é daqui a duas semanas.',
  'Return of the Sword Saint': 'O maior espadachim do murim morreu defendendo um traidor. Ele acorda trinta anos antes, no corpo do discípulo mais fraco de uma seita arruinada. Desta vez, ele sabe exatamente em quem confiar.',
  'Letters to a Stranger': 'Uma carteira começa a responder as cartas endereçadas a uma casa que pegou fogo há anos. Quem escreve responde de volta. Nenhum dos dois sabe que o outro é real.',
  'Bloom in the Ruins': 'Cinquenta anos depois da queda das cidades, uma botânica percorre as ruínas plantando sementes do último banco de sementes. Um robô feito para demolir prédios a segue. Ele começou a deixar as flores de pé.',
  'The Star Chef\'s Apprentice': 'A chef três estrelas Isabel Cruz nunca manteve uma aprendiz por mais de uma semana. Junie, que não consegue nem quebrar um ovo, já está lá há nove dias. Ninguém na cozinha entende por quê.',
  'Skyline Runners': 'Numa cidade de torres de vidro, mensageiros correm pelos telhados para entregar o que os drones não conseguem. A corredora mais rápida da cidade nunca perdeu uma encomenda. Hoje, a encomenda está seguindo ela.',
  'Ten Thousand Steps to Heaven': 'No topo da montanha há um portão, e quem subir dez mil degraus pode fazer uma pergunta aos deuses. O jovem camponês Lei já subiu nove mil e novecentos. Ele esqueceu o que queria perguntar.',
  'Glass Crown': 'A princesa usa uma coroa de vidro que se estilhaça se ela contar uma mentira. Seu noivo mente para ela desde o dia em que se conheceram. O casamento é daqui a sete dias.',
  'Penny & the Paper Moon': 'Penny recorta uma lua de papel para iluminar o caminho de casa, e a lua de verdade fica com ciúmes. Agora há duas luas sobre a cidade e as marés estão muito confusas. Penny precisa escolher qual delas vai ficar.',
};

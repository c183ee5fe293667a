package io.headroom.ui.supervise;

import io.headroom.ui.Styles;
import java.util.List;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.VBox;

/** The class detail's admission (design.md §2b): the published chip, its detail, a tightening to approve or reject. */
public final class AdmissionPanel extends VBox {
    public static final String CHIP_ID = "admission-published";
    public static final String DETAIL_ID = "admission-detail";
    public static final String PROPOSAL_ID = "admission-proposal";
    public static final String APPROVE_ID = "admission-approve";
    public static final String REJECT_ID = "admission-reject";
    public static final String STATUS_ID = "admission-status";

    public AdmissionPanel(AdmissionViewModel vm) {
        super(4);
        Label chip = new Label();
        chip.setId(CHIP_ID);
        chip.getStyleClass().add(Styles.CHIP);
        chip.textProperty().bind(vm.chipProperty());
        vm.toneProperty().addListener((o, a, t) -> Styles.toggle(chip, List.of(Styles.OK, Styles.WARN, Styles.DANGER),
                t == null || t.isEmpty() ? null : t));
        Label detail = new Label();
        detail.setId(DETAIL_ID);
        detail.getStyleClass().add(Styles.MUTED);
        detail.setWrapText(true);
        detail.textProperty().bind(vm.detailProperty());

        Label proposed = new Label();
        proposed.setWrapText(true);
        proposed.textProperty().bind(vm.proposalProperty());
        Button approve = new Button("Approve admission");
        approve.setId(APPROVE_ID);
        approve.setOnAction(e -> vm.approve());
        Button reject = new Button("Reject");
        reject.setId(REJECT_ID);
        reject.setOnAction(e -> vm.reject("rejected in the console"));
        HBox proposal = new HBox(8, proposed, approve, reject);
        proposal.setId(PROPOSAL_ID);
        proposal.setAlignment(Pos.CENTER_LEFT);
        proposal.visibleProperty().bind(vm.pendingProperty());
        proposal.managedProperty().bind(proposal.visibleProperty());
        Label status = new Label();
        status.setId(STATUS_ID);
        status.getStyleClass().add(Styles.MUTED);
        status.textProperty().bind(vm.statusProperty());
        status.visibleProperty().bind(vm.statusProperty().isNotEmpty());
        status.managedProperty().bind(status.visibleProperty());
        getChildren().addAll(new HBox(8, chip), detail, proposal, status);
        visibleProperty().bind(vm.shownProperty());
        managedProperty().bind(visibleProperty());
    }
}

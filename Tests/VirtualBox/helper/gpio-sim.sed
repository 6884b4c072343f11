s/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/
